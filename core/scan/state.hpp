#pragma once
// The (m, u, w) summary of a segment of tokens and its associative combine (docs/DESIGN.md section 3).
//   m = max score in the segment, u = sum exp(s_i - m), w = sum exp(s_i - m) v_i.
// A single token is (s_i, 1, v_i); the identity is (-inf, 0, 0); the output of a segment is w / u.
#include <cmath>
#include <limits>
#include <span>

namespace aaren {

template <class T>
constexpr T negative_infinity() { return -std::numeric_limits<T>::infinity(); }

// Scale factors that bring two segments to their common maximum. When both maxima are -inf
// (two identities) exp(-inf - -inf) would be NaN; the identity is the correct result, so both
// factors are 0 and the caller's m stays -inf.
template <class T>
struct CombineScales {
  T m, scale_a, scale_b;
};

template <class T>
inline CombineScales<T> combine_scales(T m_a, T m_b) {
  const T m = m_a > m_b ? m_a : m_b;
  if (m == negative_infinity<T>()) return {m, T(0), T(0)};
  return {m, std::exp(m_a - m), std::exp(m_b - m)};
}

// out = a (+) b on the scalar parts; w_out = w_a * scale_a + w_b * scale_b.
// w_out may alias w_a or w_b (in-place scans rely on it).
template <class T>
inline void combine(T& m_out, T& u_out, std::span<T> w_out, T m_a, T u_a, std::span<const T> w_a,
                    T m_b, T u_b, std::span<const T> w_b) {
  const CombineScales<T> c = combine_scales(m_a, m_b);
  for (std::size_t j = 0; j < w_out.size(); ++j) w_out[j] = w_a[j] * c.scale_a + w_b[j] * c.scale_b;
  u_out = u_a * c.scale_a + u_b * c.scale_b;
  m_out = c.m;
}

// Folds one token (score s, value v) into the running summary (m, u, w) of a prefix: the
// sequential scan's step and the streaming update. A new maximum rescales the old summary down
// (exp(-inf) = 0 for the first token), so no exponent is ever positive. A token of score -inf has
// weight 0: in an empty summary it leaves the summary empty (rather than taking
// exp(-inf - -inf) = NaN), as the GPU's step and scan do (gpu/warp_state.cuh,
// gpu/prefix_attention_step.cu).
// It is RecurrentCell::update (core/attention/recurrent_cell.hpp) with c = u and a = w; see the
// formula-to-function index, docs/DESIGN.md section 8.
template <class T>
inline void fold_token(T& m, T& u, T* w, T s, const T* v, int dv) {
  if (s > m) {
    const T r = std::exp(m - s);
    for (int j = 0; j < dv; ++j) w[j] = w[j] * r + v[j];
    u = u * r + T(1);
    m = s;
  } else if (!(s == negative_infinity<T>() && m == negative_infinity<T>())) {
    const T p = std::exp(s - m);
    for (int j = 0; j < dv; ++j) w[j] += p * v[j];
    u += p;
  }
}

// sum + carry += x, with carry keeping the rounding error (Kahan's compensated summation). A float
// sum of weights near 1 stops counting new tokens once it passes 2^24 (about 1.7e7: adding 1 no
// longer changes it). Each addition here first adds the error carried from the one before, so the
// sum itself keeps growing (a carry summed on its own would stall at 2^24 in turn); the error of
// the whole sum stays within about 2 ulps of the sum of the terms' sizes, however long. Branch-free,
// so loops over a vector of sums vectorize.
template <class T>
inline void compensated_add(T& sum, T& carry, T x) {
  const T y = x + carry;
  const T total = sum + y;
  carry = (sum - total) + y;
  sum = total;
}

// One compensated sum: value() = sum + carry. Scaling both parts by the same factor keeps the
// pair's meaning.
template <class T>
struct CompensatedSum {
  T sum = T(0);
  T carry = T(0);

  void add(T x) { compensated_add(sum, carry, x); }
  void scale(T factor) {
    sum *= factor;
    carry *= factor;
  }
  T value() const { return sum + carry; }
};

// fold_token with u and every w_j kept as compensated sums (w_j + w_carry_j): the float path of the
// sequential scan (core/attention/prefix_attention.cpp), where sequences may be long enough for a
// plain float u to stop counting. Same branches, so the same -inf handling.
template <class T>
inline void fold_token_compensated(T& m, CompensatedSum<T>& u, T* w, T* w_carry, T s, const T* v, int dv) {
  if (s > m) {
    const T r = std::exp(m - s);
    for (int j = 0; j < dv; ++j) {
      w[j] *= r;
      w_carry[j] *= r;
      compensated_add(w[j], w_carry[j], v[j]);
    }
    u.scale(r);
    u.add(T(1));
    m = s;
  } else if (!(s == negative_infinity<T>() && m == negative_infinity<T>())) {
    const T p = std::exp(s - m);
    for (int j = 0; j < dv; ++j) compensated_add(w[j], w_carry[j], p * v[j]);
    u.add(p);
  }
}

}  // namespace aaren
