// LayerNorm on the GPU (the CPU reference is core/nn/layernorm.cpp): one warp per row for the
// statistics and the input gradient; the parameter gradients, sums over the rows, by the
// deterministic column reduction of gpu/layer_kernels.cuh.
#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

constexpr float kLayernormEps = 1e-5f;
constexpr int kRowsPerBlock = 8;  // one per warp

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

// dweight += sum over rows of dout n, dbias += sum over rows of dout: the column reduction of
// gpu/layer_kernels.cuh.

__global__ void layernorm_param_grad_kernel(float* __restrict__ dweight, float* __restrict__ dbias,
                                            const float* __restrict__ dout, const float* __restrict__ inp,
                                            const float* __restrict__ mean, const float* __restrict__ rstd, int B,
                                            int C) {
  __shared__ float weight_partial[kRowLanes][kColumnsPerBlock + 1];
  __shared__ float bias_partial[kRowLanes][kColumnsPerBlock + 1];
  const long long column = static_cast<long long>(blockIdx.x) * kColumnsPerBlock + threadIdx.x;
  float weight_sum = 0.0f, bias_sum = 0.0f;
  if (column < C)
    for (long long r = threadIdx.y; r < B; r += kRowLanes) {
      const long long at = r * C + column;
      const float g = dout[at];
      bias_sum += g;
      weight_sum += g * ((inp[at] - mean[r]) * rstd[r]);
    }
  weight_partial[threadIdx.y][threadIdx.x] = weight_sum;
  bias_partial[threadIdx.y][threadIdx.x] = bias_sum;
  __syncthreads();
  if (threadIdx.y == 0 && column < C) {
    float weight_total = 0.0f, bias_total = 0.0f;
    for (int lane = 0; lane < kRowLanes; ++lane) {
      weight_total += weight_partial[lane][threadIdx.x];
      bias_total += bias_partial[lane][threadIdx.x];
    }
    dweight[column] += weight_total;
    dbias[column] += bias_total;
  }
}

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
  layernorm_param_grad_kernel<<<column_blocks(C), dim3(kColumnsPerBlock, kRowLanes)>>>(dweight, dbias, dout, inp,
                                                                                       mean, rstd, B, C);
  check_launch("layernorm_param_grad_kernel");
}

}  // namespace aaren::gpu
