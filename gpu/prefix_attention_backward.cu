// The backward of the forward scan in O(N d) time, with no buffer beyond its outputs: the reverse
// recurrences of docs/DESIGN.md section 3 (CPU reference: prefix_softmax_backward in
// core/attention/prefix_attention.cpp), then the chain rule through s_i = scale q . k_i as
// core/model/mixer.cpp applies it.
//   R_i = g_i + exp(logZ_i - logZ_{i+1}) R_{i+1},  Q_i = g_i . o_i + exp(logZ_i - logZ_{i+1}) Q_{i+1}
//   dv_i = p_i R_i,  ds_i = p_i (v_i . R_i - Q_i),  p_i = exp(s_i - logZ_i)
//   dk_i = ds_i scale q,  dq += sum_i ds_i scale k_i
// A suffix of tokens starting at t acts on the tokens before it only through (R_t, Q_t, logZ_t):
// for i < t the gates multiply to exp(logZ_i - logZ_t), which is taken directly from log_z (at
// most 1, since the normalizer only grows with the prefix).
#include <cstddef>

#include "gpu/attention_launch.cuh"
#include "gpu/cuda_check.hpp"
#include "gpu/prefix_attention.hpp"
#include "gpu/warp_state.cuh"

namespace aaren::gpu {

namespace {

// The suffix summary held by a warp (lane l owns R's elements l + 32 e). Empty: R = Q = 0 with
// log_z = +inf, so the factor exp(logZ_i - log_z) that carries it back is 0.
template <int E>
struct WarpSuffix {
  float r[E] = {};
  float q = 0.0f;
  float log_z = INFINITY;
};

template <int E>
struct SharedSuffix {
  float r[kWarpSize * E];
  float q;
  float log_z;
};

// Puts token i (this lane's elements of g_i, g_i . o_i and logZ_i) in front of the suffix.
template <int E>
__device__ __forceinline__ void prepend_token(WarpSuffix<E>& suffix, const float (&g)[E], float g_dot_o,
                                              float log_z) {
  const float gate = expf(log_z - suffix.log_z);
#pragma unroll
  for (int e = 0; e < E; ++e) suffix.r[e] = fmaf(gate, suffix.r[e], g[e]);
  suffix.q = fmaf(gate, suffix.q, g_dot_o);
  suffix.log_z = log_z;
}

// Puts a whole run of tokens, summarized on its own, in front of the suffix.
template <int E>
__device__ __forceinline__ void prepend_run(WarpSuffix<E>& suffix, const SharedSuffix<E>& run, int lane) {
  const float gate = expf(run.log_z - suffix.log_z);
#pragma unroll
  for (int e = 0; e < E; ++e) suffix.r[e] = fmaf(gate, suffix.r[e], run.r[lane + kWarpSize * e]);
  suffix.q = fmaf(gate, suffix.q, run.q);
  suffix.log_z = run.log_z;
}

// As many tokens per warp as the forward: each brings four d-vectors (dO, O, K, V), 32 floats
// per lane in all.
template <int E>
constexpr int kBackwardTokensPerWarp = 8 / E;

// Up to 128 registers per thread: the four vectors per token plus the suffix states fit without
// spilling for every head dimension. The backward is not tuned like the forward's single wave.
constexpr int kBackwardMinBlocksPerSm = 4;

template <int E>
__global__ void __launch_bounds__(kThreadsPerBlock, kBackwardMinBlocksPerSm)
    prefix_attention_backward_kernel(float* __restrict__ dk, float* __restrict__ dv, float* __restrict__ dq,
                                     const float* __restrict__ d_o, const float* __restrict__ q,
                                     const float* __restrict__ k, const float* __restrict__ v,
                                     const float* __restrict__ o, const float* __restrict__ log_z, int n,
                                     int heads, int d, float scale) {
  constexpr int kTokens = kBackwardTokensPerWarp<E>;
  constexpr int kChunk = kWarpsPerBlock * kTokens;
  // Double-buffered as in the forward: one __syncthreads per chunk.
  __shared__ SharedSuffix<E> published[2][kWarpsPerBlock];
  __shared__ float dq_parts[kWarpsPerBlock][kWarpSize * E];

  const int sequence = blockIdx.x;  // b H + h
  const int warp = threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  const std::size_t ld = std::size_t(heads) * std::size_t(d);
  const std::size_t head = std::size_t(sequence / heads) * std::size_t(n) * ld + std::size_t(sequence % heads) * d;
  const float* log_z_head = log_z + std::size_t(sequence) * std::size_t(n);

  float scaled_q[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int j = lane + kWarpSize * e;
    scaled_q[e] = j < d ? scale * q[std::size_t(sequence) * d + j] : 0.0f;
  }
  float keys_weighted[E] = {};  // sum_i ds_i k_i over this warp's tokens

  WarpSuffix<E> carry;  // every token after the current chunk
  int parity = 0;
  for (int chunk = (n - 1) / kChunk * kChunk; chunk >= 0; chunk -= kChunk, parity ^= 1) {
    const int first = chunk + warp * kTokens;
    float grads[kTokens][E];
    float keys[kTokens][E];
    float values[kTokens][E];
    float outs[kTokens][E];
    float token_log_z[kTokens];
#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
      const bool token_inside = first + t < n;
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const int j = lane + kWarpSize * e;
        const bool inside = token_inside && j < d;
        const std::size_t at = head + std::size_t(first + t) * ld + j;
        grads[t][e] = inside ? d_o[at] : 0.0f;
        keys[t][e] = inside ? k[at] : 0.0f;
        values[t][e] = inside ? v[at] : 0.0f;
        outs[t][e] = inside ? o[at] : 0.0f;
      }
      token_log_z[t] = token_inside ? log_z_head[first + t] : 0.0f;
    }
    float scores[kTokens];
    float g_dot_o[kTokens];
#pragma unroll
    for (int t = 0; t < kTokens; ++t) {
      float score = 0.0f;
      float go = 0.0f;
#pragma unroll
      for (int e = 0; e < E; ++e) {
        score = fmaf(scaled_q[e], keys[t][e], score);
        go = fmaf(grads[t][e], outs[t][e], go);
      }
      scores[t] = warp_sum(score);
      g_dot_o[t] = warp_sum(go);
    }

    // This warp's run on its own, last token first, for the warps before it.
    WarpSuffix<E> run;
#pragma unroll
    for (int t = kTokens - 1; t >= 0; --t)
      if (first + t < n) prepend_token(run, grads[t], g_dot_o[t], token_log_z[t]);
    SharedSuffix<E>& mine = published[parity][warp];
#pragma unroll
    for (int e = 0; e < E; ++e) mine.r[lane + kWarpSize * e] = run.r[e];
    if (lane == 0) {
      mine.q = run.q;
      mine.log_z = run.log_z;
    }
    __syncthreads();

    // The suffix after this warp's run is the runs of the warps after it, then the carry. Every
    // warp prepends all runs to its own copy of the carry, in the same order, so the copies stay
    // identical without another sync. Runs past the end of the sequence are empty and skipped.
    WarpSuffix<E> suffix = carry;
#pragma unroll
    for (int other = kWarpsPerBlock - 1; other >= 0; --other) {
      if (other == warp) suffix = carry;
      if (chunk + other * kTokens < n) prepend_run(carry, published[parity][other], lane);
    }

#pragma unroll
    for (int t = kTokens - 1; t >= 0; --t) {
      const int i = first + t;
      if (i >= n) continue;
      prepend_token(suffix, grads[t], g_dot_o[t], token_log_z[t]);  // now R_i and Q_i
      const float p = expf(scores[t] - token_log_z[t]);
      float v_dot_r = 0.0f;
#pragma unroll
      for (int e = 0; e < E; ++e) v_dot_r = fmaf(values[t][e], suffix.r[e], v_dot_r);
      const float ds = p * (warp_sum(v_dot_r) - suffix.q);
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const int j = lane + kWarpSize * e;
        if (j < d) {
          const std::size_t at = head + std::size_t(i) * ld + j;
          dv[at] = p * suffix.r[e];
          dk[at] = ds * scaled_q[e];
        }
        keys_weighted[e] = fmaf(ds, keys[t][e], keys_weighted[e]);
      }
    }
  }

  // dq: the warps' partial sums, added once per sequence (one block owns it: no atomics).
#pragma unroll
  for (int e = 0; e < E; ++e) dq_parts[warp][lane + kWarpSize * e] = keys_weighted[e];
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const int j = lane + kWarpSize * e;
      if (j >= d) continue;
      float total = 0.0f;
#pragma unroll
      for (int other = 0; other < kWarpsPerBlock; ++other) total += dq_parts[other][j];
      dq[std::size_t(sequence) * d + j] += scale * total;
    }
  }
}

}  // namespace

void prefix_attention_backward(float* dk, float* dv, float* dq, const float* d_o, const float* q, const float* k,
                               const float* v, const float* o, const float* log_z, int batch, int n, int heads, int d,
                               float scale) {
  const int blocks = attention_blocks("gpu::prefix_attention_backward", batch, n, heads, d);
  if (blocks == 0 || n == 0) return;
  with_lane_elements(d, [&](auto lane_elements) {
    constexpr int E = decltype(lane_elements)::value;
    prefix_attention_backward_kernel<E>
        <<<blocks, kThreadsPerBlock>>>(dk, dv, dq, d_o, q, k, v, o, log_z, n, heads, d, scale);
  });
  check_launch("prefix_attention_backward_kernel");
}

}  // namespace aaren::gpu
