#pragma once
// Device twins of core/scan/state.hpp for the attention kernels, held by one warp: the scalars are
// the same in every lane, and lane l owns the elements j = l + 32 e (e < E) of each d-vector, so
// the 32 lanes' loads of one row are coalesced. Also the warp-wide sum the dot products need.
#include <cuda_runtime.h>

#include <cmath>

namespace aaren::gpu {

constexpr int kWarpSize = 32;
constexpr unsigned kFullWarp = 0xffffffffu;

// Butterfly sum: every lane ends with the same value bit for bit (a + b == b + a at each step), so
// decisions taken on it, such as a new running maximum, are the same in every lane.
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(kFullWarp, x, offset);
  return x;
}

// (m, u, w) of a segment; the identity is (-inf, 0, 0).
template <int E>
struct WarpState {
  float m = -INFINITY;
  float u = 0.0f;
  float w[E] = {};
};

// How a warp hands its segment's state to the other warps of the block.
template <int E>
struct SharedState {
  float m;
  float u;
  float w[kWarpSize * E];
};

template <int E>
__device__ __forceinline__ void publish(SharedState<E>& out, const WarpState<E>& state, int lane) {
#pragma unroll
  for (int e = 0; e < E; ++e) out.w[lane + kWarpSize * e] = state.w[e];
  if (lane == 0) {
    out.m = state.m;
    out.u = state.u;
  }
}

// Folds one token (score s, this lane's elements of v) into the state of the segment before it.
// A new maximum rescales the old state down, so no exponent is ever positive.
template <int E>
__device__ __forceinline__ void fold_token(WarpState<E>& state, float s, const float (&v)[E]) {
  if (s > state.m) {
    const float r = expf(state.m - s);  // 0 for the first token (m = -inf)
#pragma unroll
    for (int e = 0; e < E; ++e) state.w[e] = fmaf(state.w[e], r, v[e]);
    state.u = fmaf(state.u, r, 1.0f);
    state.m = s;
  } else {
    const float p = expf(s - state.m);
#pragma unroll
    for (int e = 0; e < E; ++e) state.w[e] = fmaf(p, v[e], state.w[e]);
    state.u += p;
  }
}

// state = state (+) next, next's segment following state's. When both maxima are -inf (two
// identities) exp(-inf - -inf) would be NaN; the identity is the right result, so state stays.
template <int E>
__device__ __forceinline__ void combine_with(WarpState<E>& state, const SharedState<E>& next, int lane) {
  const float m = state.m > next.m ? state.m : next.m;
  if (m == -INFINITY) return;
  const float scale_state = expf(state.m - m);
  const float scale_next = expf(next.m - m);
#pragma unroll
  for (int e = 0; e < E; ++e) state.w[e] = state.w[e] * scale_state + next.w[lane + kWarpSize * e] * scale_next;
  state.u = state.u * scale_state + next.u * scale_next;
  state.m = m;
}

}  // namespace aaren::gpu
