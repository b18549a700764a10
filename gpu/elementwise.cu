// The element-wise layers and glue of gpu/layers.hpp: GELU, the residual add, the broadcasts and
// gathers around Aaren's query and the forecast head, and the loss.
#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

// The constants of core/nn/gelu.cpp, rounded to float the same way.
constexpr float kInvSqrt2 = 0.70710678118654752440f;
constexpr float kInvSqrt2Pi = 0.39894228040143267794f;

__global__ void gelu_forward_kernel(float* __restrict__ out, const float* __restrict__ inp, long long n) {
  for (long long i = global_thread(); i < n; i += grid_threads())
    out[i] = 0.5f * inp[i] * (1.0f + erff(inp[i] * kInvSqrt2));
}

// dinp may be dout: each element is read before it is written, by the same thread.
__global__ void gelu_backward_kernel(float* dinp, const float* __restrict__ inp, const float* dout, long long n) {
  for (long long i = global_thread(); i < n; i += grid_threads()) {
    const float x = inp[i];
    const float cdf = 0.5f * (1.0f + erff(x * kInvSqrt2));
    const float pdf = kInvSqrt2Pi * expf(-0.5f * x * x);
    dinp[i] = dout[i] * (cdf + x * pdf);
  }
}

// out may be a or b.
__global__ void add_kernel(float* out, const float* a, const float* b, long long n) {
  for (long long i = global_thread(); i < n; i += grid_threads()) out[i] = a[i] + b[i];
}

// out[i] = row[i % period], or out[i] += row[i % period] when kAdd: a row repeated down a matrix.
template <bool kAdd>
__global__ void repeat_row_kernel(float* __restrict__ out, const float* __restrict__ row, long long total,
                                  long long period) {
  for (long long i = global_thread(); i < total; i += grid_threads()) {
    if constexpr (kAdd)
      out[i] += row[i % period];
    else
      out[i] = row[i % period];
  }
}

// The term of sum_rows_add's column reduction: the row's entry.
struct RowEntry {
  const float* inp;
  int C;
  __device__ void operator()(long long row, long long column, float (&term)[1]) const { term[0] = inp[row * C + column]; }
};

__global__ void gather_last_kernel(float* __restrict__ out, const float* __restrict__ x, long long total, int L,
                                   int D) {
  for (long long i = global_thread(); i < total; i += grid_threads()) {
    const long long b = i / D;
    out[i] = x[(b * L + (L - 1)) * D + i % D];
  }
}

__global__ void scatter_last_kernel(float* __restrict__ dx, const float* __restrict__ dout, long long total, int L,
                                    int D) {
  for (long long i = global_thread(); i < total; i += grid_threads()) {
    const long long row = i / D;  // b L + t
    dx[i] = row % L == L - 1 ? dout[(row / L) * D + i % D] : 0.0f;
  }
}

// One block per batch row.
constexpr int kLossThreads = 256;
static_assert(kLossThreads % 32 == 0, "block sizes are whole warps: the shuffles use full-warp masks");

__global__ void mse_loss_kernel(float* __restrict__ loss, float* __restrict__ dy, const float* __restrict__ y,
                                const float* __restrict__ truth, int n, float grad_weight) {
  __shared__ float scratch[kMaxBlockWarps];
  const long long row = static_cast<long long>(blockIdx.x) * n;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const float diff = y[row + i] - truth[row + i];
    sum += diff * diff;
    if (dy) dy[row + i] = grad_weight * (2.0f * diff / static_cast<float>(n));
  }
  sum = block_reduce_sum<kLossThreads>(sum, scratch);
  if (threadIdx.x == 0) loss[blockIdx.x] = sum / static_cast<float>(n);
}

// broadcast_rows and add_to_each: `rows` copies of `row` (period values), assigned or added.
template <bool kAdd>
void repeat_row(const char* function, const char* period_name, float* out, const float* row, int rows,
                long long period) {
  require_non_negative(function, "B", rows);
  require_positive(function, period_name, period);
  if (rows == 0) return;
  const long long total = static_cast<long long>(rows) * period;
  repeat_row_kernel<kAdd><<<stride_blocks(total), kStrideThreads>>>(out, row, total, period);
  check_launch("repeat_row_kernel");
}

}  // namespace

void gelu_forward(float* out, const float* inp, long N) {
  require_non_negative("gelu_forward", "N", N);
  if (N == 0) return;
  gelu_forward_kernel<<<stride_blocks(N), kStrideThreads>>>(out, inp, N);
  check_launch("gelu_forward_kernel");
}

void gelu_backward(float* dinp, const float* inp, const float* dout, long N) {
  require_non_negative("gelu_backward", "N", N);
  if (N == 0) return;
  gelu_backward_kernel<<<stride_blocks(N), kStrideThreads>>>(dinp, inp, dout, N);
  check_launch("gelu_backward_kernel");
}

void add(float* out, const float* a, const float* b, long N) {
  require_non_negative("add", "N", N);
  if (N == 0) return;
  add_kernel<<<stride_blocks(N), kStrideThreads>>>(out, a, b, N);
  check_launch("add_kernel");
}

void broadcast_rows(float* out, const float* row, int B, int C) {
  repeat_row<false>("broadcast_rows", "C", out, row, B, C);
}

void sum_rows_add(float* out, const float* inp, int B, int C) {
  require_non_negative("sum_rows_add", "B", B);
  require_positive("sum_rows_add", "C", C);
  if (B == 0) return;
  column_sums_add<1>("sum_rows_add", ColumnOutputs<1>{{out}}, B, C, RowEntry{inp, C});
}

void add_to_each(float* x, const float* table, int B, long LD) {
  repeat_row<true>("add_to_each", "LD", x, table, B, LD);
}

void gather_last(float* out, const float* x, int B, int L, int D) {
  require_non_negative("gather_last", "B", B);
  require_positive("gather_last", "L", L);
  require_positive("gather_last", "D", D);
  if (B == 0) return;
  const long long total = static_cast<long long>(B) * D;
  gather_last_kernel<<<stride_blocks(total), kStrideThreads>>>(out, x, total, L, D);
  check_launch("gather_last_kernel");
}

void scatter_last(float* dx, const float* dout, int B, int L, int D) {
  require_non_negative("scatter_last", "B", B);
  require_positive("scatter_last", "L", L);
  require_positive("scatter_last", "D", D);
  if (B == 0) return;
  const long long total = static_cast<long long>(B) * L * D;
  scatter_last_kernel<<<stride_blocks(total), kStrideThreads>>>(dx, dout, total, L, D);
  check_launch("scatter_last_kernel");
}

void mse_loss(float* loss, float* dy, const float* y, const float* truth, int B, int n, float grad_weight) {
  require_non_negative("mse_loss", "B", B);
  require_positive("mse_loss", "n", n);
  if (B == 0) return;
  mse_loss_kernel<<<B, kLossThreads>>>(loss, dy, y, truth, n, grad_weight);
  check_launch("mse_loss_kernel");
}

}  // namespace aaren::gpu
