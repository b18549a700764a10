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

// sum + carry += x, keeping the rounding error in carry: the float twin of CompensatedSum in
// core/scan/state.hpp (Kahan's feedback, Neumaier's comparison). Without it a float u stops counting
// tokens of weight near 1 past 2^24. __fadd_rn keeps the compiler from fusing the error terms.
__device__ __forceinline__ void compensated_add(float& sum, float& carry, float x) {
  const float y = __fadd_rn(x, carry);
  const float total = __fadd_rn(sum, y);
  carry = fabsf(sum) >= fabsf(y) ? __fadd_rn(__fsub_rn(sum, total), y) : __fadd_rn(__fsub_rn(y, total), sum);
  sum = total;
}

// (m, u, w) of a segment; the identity is (-inf, 0, 0). u and w are compensated sums: their values
// are u + u_carry and w[e] + w_carry[e].
template <int E>
struct WarpState {
  float m = -INFINITY;
  float u = 0.0f;
  float u_carry = 0.0f;
  float w[E] = {};
  float w_carry[E] = {};

  __device__ __forceinline__ float u_value() const { return u + u_carry; }
  __device__ __forceinline__ float w_value(int e) const { return w[e] + w_carry[e]; }
  __device__ __forceinline__ void rescale(float r) {
#pragma unroll
    for (int e = 0; e < E; ++e) {
      w[e] *= r;
      w_carry[e] *= r;
    }
    u *= r;
    u_carry *= r;
  }
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
  for (int e = 0; e < E; ++e) out.w[lane + kWarpSize * e] = state.w_value(e);
  if (lane == 0) {
    out.m = state.m;
    out.u = state.u_value();
  }
}

// Folds one token (score s, this lane's elements of v) into the state of the segment before it.
// A new maximum rescales the old state down, so no exponent is ever positive. A score of -inf in an
// empty state leaves it empty (exp(-inf - -inf) would be NaN), as core/scan/state.hpp's fold_token
// and the streaming step (gpu/prefix_attention_step.cu) do.
template <int E>
__device__ __forceinline__ void fold_token(WarpState<E>& state, float s, const float (&v)[E]) {
  if (s > state.m) {
    state.rescale(expf(state.m - s));  // 0 for the first token (m = -inf)
#pragma unroll
    for (int e = 0; e < E; ++e) compensated_add(state.w[e], state.w_carry[e], v[e]);
    compensated_add(state.u, state.u_carry, 1.0f);
    state.m = s;
  } else if (!(s == -INFINITY && state.m == -INFINITY)) {
    const float p = expf(s - state.m);
#pragma unroll
    for (int e = 0; e < E; ++e) compensated_add(state.w[e], state.w_carry[e], p * v[e]);
    compensated_add(state.u, state.u_carry, p);
  }
}

// state = state (+) next, next's segment following state's. When both maxima are -inf (two
// identities) exp(-inf - -inf) would be NaN; the identity is the right result, so state stays.
template <int E>
__device__ __forceinline__ void combine_with(WarpState<E>& state, const SharedState<E>& next, int lane) {
  const float m = state.m > next.m ? state.m : next.m;
  if (m == -INFINITY) return;
  const float scale_next = expf(next.m - m);
  state.rescale(expf(state.m - m));
#pragma unroll
  for (int e = 0; e < E; ++e)
    compensated_add(state.w[e], state.w_carry[e], next.w[lane + kWarpSize * e] * scale_next);
  compensated_add(state.u, state.u_carry, next.u * scale_next);
  state.m = m;
}

}  // namespace aaren::gpu
