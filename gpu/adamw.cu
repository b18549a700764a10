// The optimizer step on the GPU (the CPU reference is core/train/adamw.cpp: AdamW::step and
// clip_grad_norm): the squared gradient norm stays in device memory and the step reads it there,
// so clipping and the skip of a non-finite step need no host round trip.
#include <algorithm>
#include <cmath>

#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

// Two stages, each in a fixed order whatever the timing, in double as the CPU does: blocks of
// kSumThreads over a grid stride write one partial sum each, then one block adds the partials.
// The grid depends only on N, so the result is the same bit for bit on every run.
constexpr int kSumThreads = 256;
constexpr long long kMaxSumBlocks = 1024;
static_assert(kSumThreads % 32 == 0 && kMaxSumBlocks % kSumThreads == 0,
              "whole warps, and the final block takes kMaxSumBlocks / kSumThreads partials per thread");

__global__ void __launch_bounds__(kSumThreads)
    sum_of_squares_partials_kernel(double* __restrict__ partial, const float* __restrict__ x, long long n) {
  __shared__ double scratch[kMaxBlockWarps];
  double sum = 0.0;
  for (long long i = global_thread(); i < n; i += grid_threads())
    sum += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  sum = block_reduce_sum<kSumThreads>(sum, scratch);
  if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(kSumThreads)
    sum_of_partials_kernel(float* __restrict__ out, const double* __restrict__ partial, int blocks) {
  __shared__ double scratch[kMaxBlockWarps];
  double sum = 0.0;
  for (int i = threadIdx.x; i < blocks; i += kSumThreads) sum += partial[i];
  sum = block_reduce_sum<kSumThreads>(sum, scratch);
  if (threadIdx.x == 0) *out = static_cast<float>(sum);
}

// Every thread reads the same norm and so takes the same decision. The arithmetic follows
// AdamW::step term by term: m, v, then the decoupled decay, then the Adam update.
__global__ void adamw_step_kernel(float* __restrict__ params, float* __restrict__ m, float* __restrict__ v,
                                  const float* __restrict__ grads, const float* __restrict__ decay,
                                  const float* __restrict__ grad_sum_sq, long long n, float lr, float beta1,
                                  float beta2, float eps, float decay_rate, float c1, float c2, float clip) {
  const double norm = sqrt(static_cast<double>(*grad_sum_sq));
  if (!isfinite(norm)) return;
  const float clip_scale = clip > 0.0f && norm > clip ? static_cast<float>(clip / norm) : 1.0f;
  for (long long i = global_thread(); i < n; i += grid_threads()) {
    const float g = grads[i] * clip_scale;
    const float m_i = beta1 * m[i] + (1.0f - beta1) * g;
    const float v_i = beta2 * v[i] + (1.0f - beta2) * g * g;
    float p = params[i];
    p -= decay_rate * decay[i] * p;
    p -= lr * (m_i * c1) / (sqrtf(v_i * c2) + eps);
    m[i] = m_i;
    v[i] = v_i;
    params[i] = p;
  }
}

}  // namespace

void sum_of_squares(float* out, const float* x, long N) {
  require_non_negative("sum_of_squares", "N", N);
  if (N == 0) {
    AAREN_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));  // the empty sum, without a launch
    return;
  }
  const int blocks = static_cast<int>(std::min<long long>((N + kSumThreads - 1) / kSumThreads, kMaxSumBlocks));
  StreamScratch partial(sizeof(double) * static_cast<std::size_t>(blocks));
  sum_of_squares_partials_kernel<<<blocks, kSumThreads>>>(partial.as<double>(), x, N);
  check_launch("sum_of_squares_partials_kernel");
  sum_of_partials_kernel<<<1, kSumThreads>>>(out, partial.as<double>(), blocks);
  check_launch("sum_of_partials_kernel");
}

// The bias corrections in double on the host, as AdamW::step computes them, rounded to float once.
void adamw_step(float* params, float* m, float* v, const float* grads, const float* decay, const float* grad_sum_sq,
                long N, float lr, float beta1, float beta2, float eps, float weight_decay, long t, float clip) {
  require_non_negative("adamw_step", "N", N);
  require_positive("adamw_step", "the step number t (counted from 1)", t);
  if (N == 0) return;
  const float c1 = static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(beta1), static_cast<double>(t))));
  const float c2 = static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(beta2), static_cast<double>(t))));
  const float decay_rate = static_cast<float>(static_cast<double>(lr) * static_cast<double>(weight_decay));
  adamw_step_kernel<<<stride_blocks(N), kStrideThreads>>>(params, m, v, grads, decay, grad_sum_sq, N, lr, beta1, beta2,
                                                          eps, decay_rate, c1, c2, clip);
  check_launch("adamw_step_kernel");
}

}  // namespace aaren::gpu
