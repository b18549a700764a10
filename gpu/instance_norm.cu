// Instance normalization of a batch of windows (the CPU reference is core/nn/instance_norm.cpp):
// the statistics by a warp per (window, channel); the denormalization element-wise.
#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

constexpr float kInstanceNormEps = 1e-5f;

// Two passes (mean, then squared deviations) and a division by sigma, as on the CPU. One warp per
// (window, channel): its lanes split the time axis and meet in a butterfly sum (the same in every
// lane, and the same on every run), so B C warps fill the GPU where B C threads could not.
constexpr int kNormWarpsPerBlock = 8;
static_assert(kNormWarpsPerBlock * kWarpSize <= 1024, "a block of whole warps, at most 1024 threads");

__global__ void instance_norm_forward_kernel(float* __restrict__ out, float* __restrict__ mean,
                                             float* __restrict__ sigma, const float* __restrict__ inp,
                                             long long columns, int L, int C) {
  const long long i = static_cast<long long>(blockIdx.x) * kNormWarpsPerBlock + threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (i >= columns) return;  // the whole warp: no shuffle below misses a lane
  const long long first = (i / C) * L * C + i % C;  // (b, t = 0, c)
  float sum = 0.0f;
  for (int t = lane; t < L; t += kWarpSize) sum += inp[first + static_cast<long long>(t) * C];
  const float m = warp_reduce_sum(sum) / static_cast<float>(L);
  float squares = 0.0f;
  for (int t = lane; t < L; t += kWarpSize) {
    const float d = inp[first + static_cast<long long>(t) * C] - m;
    squares += d * d;
  }
  const float s = sqrtf(warp_reduce_sum(squares) / static_cast<float>(L) + kInstanceNormEps);
  for (int t = lane; t < L; t += kWarpSize) {
    const long long at = first + static_cast<long long>(t) * C;
    out[at] = (inp[at] - m) / s;
  }
  if (lane == 0) {
    mean[i] = m;
    sigma[i] = s;
  }
}

__global__ void instance_denorm_forward_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                               const float* __restrict__ mean, const float* __restrict__ sigma,
                                               long long total, int H, int C) {
  for (long long i = global_thread(); i < total; i += grid_threads()) {
    const long long statistic = (i / (static_cast<long long>(H) * C)) * C + i % C;  // (b, c)
    out[i] = inp[i] * sigma[statistic] + mean[statistic];
  }
}

__global__ void instance_denorm_backward_kernel(float* __restrict__ dinp, const float* __restrict__ dout,
                                                const float* __restrict__ sigma, long long total, int H, int C) {
  for (long long i = global_thread(); i < total; i += grid_threads())
    dinp[i] = dout[i] * sigma[(i / (static_cast<long long>(H) * C)) * C + i % C];
}

void check_instance_sizes(const char* function, const char* steps, int B, int L, int C) {
  require_non_negative(function, "B", B);
  require_positive(function, steps, L);
  require_positive(function, "C", C);
}

}  // namespace

void instance_norm_forward(float* out, float* mean, float* sigma, const float* inp, int B, int L, int C) {
  check_instance_sizes("instance_norm_forward", "L", B, L, C);
  if (B == 0) return;
  const long long columns = static_cast<long long>(B) * C;
  const int blocks = block_count("instance_norm_forward", "B x C / 8 blocks",
                                 (columns + kNormWarpsPerBlock - 1) / kNormWarpsPerBlock);
  instance_norm_forward_kernel<<<blocks, kNormWarpsPerBlock * kWarpSize>>>(out, mean, sigma, inp, columns, L, C);
  check_launch("instance_norm_forward_kernel");
}

void instance_denorm_forward(float* out, const float* inp, const float* mean, const float* sigma, int B, int H,
                             int C) {
  check_instance_sizes("instance_denorm_forward", "H", B, H, C);
  if (B == 0) return;
  const long long total = static_cast<long long>(B) * H * C;
  instance_denorm_forward_kernel<<<stride_blocks(total), kStrideThreads>>>(out, inp, mean, sigma, total, H, C);
  check_launch("instance_denorm_forward_kernel");
}

void instance_denorm_backward(float* dinp, const float* dout, const float* sigma, int B, int H, int C) {
  check_instance_sizes("instance_denorm_backward", "H", B, H, C);
  if (B == 0) return;
  const long long total = static_cast<long long>(B) * H * C;
  instance_denorm_backward_kernel<<<stride_blocks(total), kStrideThreads>>>(dinp, dout, sigma, total, H, C);
  check_launch("instance_denorm_backward_kernel");
}

}  // namespace aaren::gpu
