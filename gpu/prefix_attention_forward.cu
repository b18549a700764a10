// The forward scan: every prefix's softmax-weighted mean of V, scores computed on the fly, K and V
// read once and O written once (docs/DESIGN.md section 3; the CPU reference is
// core/attention/prefix_attention.cpp).
#include <cstddef>

#include "gpu/attention_launch.cuh"
#include "gpu/cuda_check.hpp"
#include "gpu/prefix_attention.hpp"
#include "gpu/warp_state.cuh"

namespace aaren::gpu {

namespace {

// Tokens per warp and chunk: each lane holds 8 floats of V (and, until the scores are taken, of K)
// in registers, whatever d is. For d = 64 that is 4 tokens per warp, 16 per chunk, and with 8
// resident blocks 64 KiB of K and V in flight per SM, more than the memory latency needs.
template <int E>
constexpr int kForwardTokensPerWarp = 8 / E;

// At most 64 registers per thread for d <= 64 (d <= 32 then spills a few bytes to L1), so 8
// blocks fit on an SM and B H = 1024 sequences run in one wave on a 132-SM H100; wider heads
// need more registers per token.
template <int E>
constexpr int kForwardMinBlocksPerSm = E <= 2 ? 8 : 4;

template <int E>
__global__ void __launch_bounds__(kThreadsPerBlock, kForwardMinBlocksPerSm<E>)
    prefix_attention_forward_kernel(float* __restrict__ o, float* __restrict__ log_z, const float* __restrict__ q,
                                    const float* __restrict__ k, const float* __restrict__ v, int n, int heads,
                                    int d, float scale) {
  constexpr int kTokens = kForwardTokensPerWarp<E>;
  constexpr int kChunk = kWarpsPerBlock * kTokens;
  // Double-buffered, so a warp may publish its next run while slower warps still read this one:
  // one __syncthreads per chunk.
  __shared__ SharedState<E> published[2][kWarpsPerBlock];

  const int sequence = blockIdx.x;  // b H + h
  const int warp = threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  const std::size_t ld = std::size_t(heads) * std::size_t(d);
  const std::size_t head = std::size_t(sequence / heads) * std::size_t(n) * ld + std::size_t(sequence % heads) * d;
  const float* k_head = k + head;
  const float* v_head = v + head;
  float* o_head = o + head;
  float* log_z_head = log_z ? log_z + std::size_t(sequence) * std::size_t(n) : nullptr;

  float scaled_q[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int j = lane + kWarpSize * e;
    scaled_q[e] = j < d ? scale * q[std::size_t(sequence) * d + j] : 0.0f;
  }

  WarpState<E> carry;  // every token before the current chunk
  int parity = 0;
  for (int chunk = 0; chunk < n; chunk += kChunk, parity ^= 1) {
    const int first = chunk + warp * kTokens;
    float keys[kTokens][E];
    float values[kTokens][E];
#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const int j = lane + kWarpSize * e;
        const bool inside = first + t < n && j < d;
        const std::size_t at = std::size_t(first + t) * ld + j;
        keys[t][e] = inside ? k_head[at] : 0.0f;
        values[t][e] = inside ? v_head[at] : 0.0f;
      }
    }
    float scores[kTokens];
#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
      float partial = 0.0f;
#pragma unroll
      for (int e = 0; e < E; ++e) partial = fmaf(scaled_q[e], keys[t][e], partial);
      scores[t] = warp_sum(partial);
    }

    // This warp's run on its own, for the warps after it.
    WarpState<E> run;
#pragma unroll
    for (int t = 0; t < kTokens; ++t)
      if (first + t < n) fold_token(run, scores[t], values[t]);
    publish(published[parity][warp], run, lane);
    __syncthreads();

    // The state before this warp's run is the carry followed by the runs of the warps before it.
    // Every warp folds all runs into its own copy of the carry, in the same order, so the copies
    // stay identical without another sync.
    WarpState<E> state = carry;
#pragma unroll
    for (int other = 0; other < kWarpsPerBlock; ++other) {
      if (other == warp) state = carry;
      combine_with(carry, published[parity][other], lane);
    }

#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
      const int i = first + t;
      if (i >= n) break;
      fold_token(state, scores[t], values[t]);
      const float inverse_u = 1.0f / state.u_value();
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const int j = lane + kWarpSize * e;
        if (j < d) o_head[std::size_t(i) * ld + j] = state.w_value(e) * inverse_u;
      }
      if (log_z_head && lane == 0) log_z_head[i] = state.m + logf(state.u_value());
    }
  }
}

}  // namespace

void prefix_attention_forward(float* o, float* log_z, const float* q, const float* k, const float* v, int batch,
                              int n, int heads, int d, float scale) {
  const int blocks = attention_blocks("gpu::prefix_attention_forward", batch, n, heads, d);
  if (blocks == 0 || n == 0) return;
  with_lane_elements(d, [&](auto lane_elements) {
    constexpr int E = decltype(lane_elements)::value;
    prefix_attention_forward_kernel<E><<<blocks, kThreadsPerBlock>>>(o, log_z, q, k, v, n, heads, d, scale);
  });
  check_launch("prefix_attention_forward_kernel");
}

}  // namespace aaren::gpu
