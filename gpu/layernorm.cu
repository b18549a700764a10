// LayerNorm on the GPU (the CPU reference is core/nn/layernorm.cpp): one warp per row for the
// statistics and the input gradient; the parameter gradients, sums over the rows, by the
// deterministic two-stage column reduction of gpu/layer_kernels.cuh.
#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

constexpr float kLayernormEps = 1e-5f;
constexpr int kRowsPerBlock = 8;  // one per warp
static_assert(kRowsPerBlock * kWarpSize <= 1024, "a block of whole warps, at most 1024 threads");

// Two passes over the row (mean, then squared deviations), as on the CPU. A row of C floats is
// small enough to stay in L1 between the passes.
__global__ void layernorm_forward_kernel(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                         const float* __restrict__ inp, const float* __restrict__ weight,
                                         const float* __restrict__ bias, int B, int C) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (row >= B) return;  // the whole warp: no shuffle below misses a lane
  const float* x = inp + row * C;
  float* y = out + row * C;
  float sum = 0.0f;
  for (int i = lane; i < C; i += kWarpSize) sum += x[i];
  const float m = warp_reduce_sum(sum) / static_cast<float>(C);
  float squares = 0.0f;
  for (int i = lane; i < C; i += kWarpSize) squares += (x[i] - m) * (x[i] - m);
  const float var = warp_reduce_sum(squares) / static_cast<float>(C);
  const float r = 1.0f / sqrtf(var + kLayernormEps);
  for (int i = lane; i < C; i += kWarpSize) y[i] = (x[i] - m) * r * weight[i] + bias[i];
  if (lane == 0) {
    mean[row] = m;
    rstd[row] = r;
  }
}

// With n = (x - mean) rstd and dn = dout weight: dx = rstd (dn - mean(dn) - n mean(dn n)).
__global__ void layernorm_input_grad_kernel(float* __restrict__ dinp, const float* __restrict__ dout,
                                            const float* __restrict__ inp, const float* __restrict__ weight,
                                            const float* __restrict__ mean, const float* __restrict__ rstd, int B,
                                            int C) {
  const long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (row >= B) return;
  const long long offset = row * C;
  const float* x = inp + offset;
  const float* g = dout + offset;
  float* dx = dinp + offset;
  const float m = mean[row], r = rstd[row];
  float dn_sum = 0.0f, dn_n_sum = 0.0f;
  for (int i = lane; i < C; i += kWarpSize) {
    const float dn = g[i] * weight[i];
    dn_sum += dn;
    dn_n_sum += dn * ((x[i] - m) * r);
  }
  const float dn_mean = warp_reduce_sum(dn_sum) / static_cast<float>(C);
  const float dn_n_mean = warp_reduce_sum(dn_n_sum) / static_cast<float>(C);
  for (int i = lane; i < C; i += kWarpSize) {
    const float n = (x[i] - m) * r;
    dx[i] = (g[i] * weight[i] - dn_mean - n * dn_n_mean) * r;
  }
}

// dweight += sum over rows of dout n, dbias += sum over rows of dout: the two-stage column
// reduction of gpu/layer_kernels.cuh, both sums in one pass over the rows.
struct LayernormParamTerms {
  const float* dout;
  const float* inp;
  const float* mean;
  const float* rstd;
  int C;
  __device__ void operator()(long long row, long long column, float (&term)[2]) const {
    const long long at = row * C + column;
    const float g = dout[at];
    term[0] = g * ((inp[at] - mean[row]) * rstd[row]);
    term[1] = g;
  }
};

void check_layernorm_sizes(const char* function, int B, int C) {
  require_non_negative(function, "B", B);
  require_positive(function, "C", C);
}

int row_blocks(int B) { return static_cast<int>((static_cast<long long>(B) + kRowsPerBlock - 1) / kRowsPerBlock); }

}  // namespace

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                       const float* bias, int B, int C) {
  check_layernorm_sizes("layernorm_forward", B, C);
  if (B == 0) return;
  layernorm_forward_kernel<<<row_blocks(B), kRowsPerBlock * kWarpSize>>>(out, mean, rstd, inp, weight, bias, B, C);
  check_launch("layernorm_forward_kernel");
}

void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, int B, int C) {
  check_layernorm_sizes("layernorm_backward", B, C);
  if (B == 0) return;
  layernorm_input_grad_kernel<<<row_blocks(B), kRowsPerBlock * kWarpSize>>>(dinp, dout, inp, weight, mean, rstd, B,
                                                                            C);
  check_launch("layernorm_input_grad_kernel");
  column_sums_add<2>("layernorm_param_grad", ColumnOutputs<2>{{dweight, dbias}}, B, C,
                     LayernormParamTerms{dout, inp, mean, rstd, C});
}

}  // namespace aaren::gpu
