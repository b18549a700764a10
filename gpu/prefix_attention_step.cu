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

// Every lane computes the same score (the butterfly sum is the same in every lane) and so takes the
// same branch; lane 0 alone stores the new scalars, after every lane has read the old ones.
__global__ void prefix_attention_step_kernel(float* __restrict__ out, float* __restrict__ m_state,
                                             float* __restrict__ u_state, float* __restrict__ w_state,
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
  const float u = u_state[state];
  // A token of weight zero (score -inf) in an empty summary leaves it empty, rather than taking
  // exp(-inf - -inf) = NaN.
  if (s == -INFINITY && m == -INFINITY) {
    for (int j = lane; j < d; j += kWarpSize) out[row + j] = w_state[row + j] / u;
    return;
  }
  float new_u;
  if (s > m) {  // a new maximum rescales the old summary down (by exp(-inf) = 0 for the first token)
    const float r = expf(m - s);
    for (int j = lane; j < d; j += kWarpSize) {
      const float w = w_state[row + j] * r + v[row + j];
      w_state[row + j] = w;
      out[row + j] = w / (u * r + 1.0f);
    }
    new_u = u * r + 1.0f;
  } else {
    const float p = expf(s - m);
    for (int j = lane; j < d; j += kWarpSize) {
      const float w = w_state[row + j] + p * v[row + j];
      w_state[row + j] = w;
      out[row + j] = w / (u + p);
    }
    new_u = u + p;
  }
  __syncwarp();
  if (lane == 0) {
    m_state[state] = fmaxf(s, m);
    u_state[state] = new_u;
  }
}

__global__ void prefix_attention_reset_kernel(float* __restrict__ m, float* __restrict__ u, float* __restrict__ w,
                                              long long heads_total, long long columns_total) {
  for (long long i = global_thread(); i < columns_total; i += grid_threads()) {
    w[i] = 0.0f;
    if (i < heads_total) {
      m[i] = -INFINITY;
      u[i] = 0.0f;
    }
  }
}

void check_step_sizes(const char* function, int B, int C, int H) {
  require_non_negative(function, "B", B);
  require_heads(function, C, H);
}

}  // namespace

void prefix_attention_step(float* out, float* m, float* u, float* w, const float* q, const float* k, const float* v,
                           int B, int C, int H, float scale) {
  check_step_sizes("prefix_attention_step", B, C, H);
  if (B == 0) return;
  const long long streams_x_heads = static_cast<long long>(B) * H;
  const int blocks = block_count("prefix_attention_step", "B x H / 4",
                                 (streams_x_heads + kStepWarpsPerBlock - 1) / kStepWarpsPerBlock);
  prefix_attention_step_kernel<<<blocks, kStepWarpsPerBlock * kWarpSize>>>(out, m, u, w, q, k, v, streams_x_heads, C,
                                                                          H, scale);
  check_launch("prefix_attention_step_kernel");
}

void prefix_attention_reset(float* m, float* u, float* w, int B, int C, int H) {
  check_step_sizes("prefix_attention_reset", B, C, H);
  if (B == 0) return;
  const long long columns_total = static_cast<long long>(B) * C;
  prefix_attention_reset_kernel<<<stride_blocks(columns_total), kStrideThreads>>>(
      m, u, w, static_cast<long long>(B) * H, columns_total);
  check_launch("prefix_attention_reset_kernel");
}

}  // namespace aaren::gpu
