// Aaren's streaming step on the GPU (the CPU reference is BackboneStream::aaren_layer in
// core/model/backbone_stream.cpp, with fold_token of core/scan/state.hpp): one warp per (stream,
// head) folds the new token into the head's (m, u, w) summary in O(d).
#include <cmath>

#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

constexpr int kStepWarpsPerBlock = 4;
static_assert(kStepWarpsPerBlock * kWarpSize <= 1024, "a block of whole warps, at most 1024 threads");

// Every lane computes the same score (the butterfly sum is the same in every lane) and so takes the
// same branch; lane 0 alone stores the new scalars, after every lane has read the old ones. u and w
// are compensated sums (compensated_add of gpu/warp_state.cuh).
__global__ void prefix_attention_step_kernel(float* __restrict__ out, float* __restrict__ m_state,
                                             float* __restrict__ u_state, float* __restrict__ u_carry_state,
                                             float* __restrict__ w_state, float* __restrict__ w_carry_state,
                                             const float* __restrict__ q, const float* __restrict__ k,
                                             const float* __restrict__ v, long long streams_x_heads, int C, int H,
                                             float scale) {
  const long long state = static_cast<long long>(blockIdx.x) * kStepWarpsPerBlock + threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  if (state >= streams_x_heads) return;  // the whole warp
  const int d = C / H;
  const int column = static_cast<int>(state % H) * d;
  const long long row = (state / H) * C + column;  // (b, h d) in a (B, C) matrix

  float partial = 0.0f;
  for (int j = lane; j < d; j += kWarpSize) partial += q[column + j] * k[row + j];
  const float s = scale * warp_reduce_sum(partial);
  const float m = m_state[state];
  float u = u_state[state], u_carry = u_carry_state[state];
  // A token of weight zero (score -inf) in an empty summary leaves it empty, rather than taking
  // exp(-inf - -inf) = NaN (fold_token of core/scan/state.hpp and gpu/warp_state.cuh do the same).
  if (s == -INFINITY && m == -INFINITY) {
    for (int j = lane; j < d; j += kWarpSize)
      out[row + j] = (w_state[row + j] + w_carry_state[row + j]) / (u + u_carry);
    return;
  }
  // A new maximum rescales the old summary down (by exp(-inf) = 0 for the first token); otherwise
  // the token comes in with weight p.
  const bool new_maximum = s > m;
  const float r = new_maximum ? expf(m - s) : 1.0f;
  const float p = new_maximum ? 1.0f : expf(s - m);
  u *= r;
  u_carry *= r;
  compensated_add(u, u_carry, p);
  const float inverse_u = 1.0f / (u + u_carry);
  for (int j = lane; j < d; j += kWarpSize) {
    float w = w_state[row + j] * r, w_carry = w_carry_state[row + j] * r;
    compensated_add(w, w_carry, p * v[row + j]);
    w_state[row + j] = w;
    w_carry_state[row + j] = w_carry;
    out[row + j] = (w + w_carry) * inverse_u;
  }
  __syncwarp();
  if (lane == 0) {
    m_state[state] = new_maximum ? s : m;
    u_state[state] = u;
    u_carry_state[state] = u_carry;
  }
}

__global__ void prefix_attention_reset_kernel(float* __restrict__ m, float* __restrict__ u,
                                              float* __restrict__ u_carry, float* __restrict__ w,
                                              float* __restrict__ w_carry, long long heads_total,
                                              long long columns_total) {
  for (long long i = global_thread(); i < columns_total; i += grid_threads()) {
    w[i] = 0.0f;
    w_carry[i] = 0.0f;
    if (i < heads_total) {
      m[i] = -INFINITY;
      u[i] = 0.0f;
      u_carry[i] = 0.0f;
    }
  }
}

void check_step_sizes(const char* function, int B, int C, int H) {
  require_non_negative(function, "B", B);
  require_heads(function, C, H);
}

}  // namespace

void prefix_attention_step(float* out, float* m, float* u, float* u_carry, float* w, float* w_carry, const float* q,
                           const float* k, const float* v, int B, int C, int H, float scale) {
  check_step_sizes("prefix_attention_step", B, C, H);
  if (B == 0) return;
  const long long streams_x_heads = static_cast<long long>(B) * H;
  const int blocks = block_count("prefix_attention_step", "B x H / 4",
                                 (streams_x_heads + kStepWarpsPerBlock - 1) / kStepWarpsPerBlock);
  prefix_attention_step_kernel<<<blocks, kStepWarpsPerBlock * kWarpSize>>>(out, m, u, u_carry, w, w_carry, q, k, v,
                                                                          streams_x_heads, C, H, scale);
  check_launch("prefix_attention_step_kernel");
}

void prefix_attention_reset(float* m, float* u, float* u_carry, float* w, float* w_carry, int B, int C, int H) {
  check_step_sizes("prefix_attention_reset", B, C, H);
  if (B == 0) return;
  const long long columns_total = static_cast<long long>(B) * C;
  prefix_attention_reset_kernel<<<stride_blocks(columns_total), kStrideThreads>>>(
      m, u, u_carry, w, w_carry, static_cast<long long>(B) * H, columns_total);
  check_launch("prefix_attention_reset_kernel");
}

}  // namespace aaren::gpu
