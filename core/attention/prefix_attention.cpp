#include "core/attention/prefix_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/scan/state.hpp"
#include "core/util/eigen_core.hpp"

namespace aaren {

namespace {
template <class T>
using ConstVector = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using Vector = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
}  // namespace

// The float path keeps u and w as compensated sums: a plain float u stops counting tokens of
// weight near 1 past about 1.7e7 tokens (core/scan/state.hpp, CompensatedSum). Double has room to
// spare and keeps the plain fold.
template <class T>
void prefix_attention_forward(T* o, T* log_z, const T* q, const T* k, const T* v, int n, int d, int dv,
                              T scale, int ld_k, int ld_v, int ld_o) {
  const ConstVector<T> qv(q, d);
  // The running (m, u, w) summary of the prefix, updated in place token by token. w lives on the
  // stack for the head sizes models use, so that calls (every head of every training sample) never
  // allocate, not even once per thread: a thread's first call may come late in training. Wider
  // values take a buffer kept per thread.
  T m = -std::numeric_limits<T>::infinity();
  constexpr int kStackValueDims = 256;
  if constexpr (std::is_same_v<T, float>) {
    CompensatedSum<T> u;
    T stack_w[2 * kStackValueDims];  // w, then its carries
    thread_local std::vector<T> heap_w;
    if (dv > kStackValueDims) heap_w.resize(2 * std::size_t(dv));
    T* w = dv > kStackValueDims ? heap_w.data() : stack_w;
    T* w_carry = w + dv;
    std::fill(w, w + 2 * dv, T(0));
    for (int i = 0; i < n; ++i) {
      const T s = scale * qv.dot(ConstVector<T>(k + std::size_t(i) * std::size_t(ld_k), d));
      fold_token_compensated(m, u, w, w_carry, s, v + std::size_t(i) * std::size_t(ld_v), dv);
      const T inv_u = T(1) / u.value();
      T* oi = o + std::size_t(i) * std::size_t(ld_o);
      for (int j = 0; j < dv; ++j) oi[j] = (w[j] + w_carry[j]) * inv_u;
      if (log_z) log_z[i] = m + std::log(u.value());
    }
  } else {
    T u = 0;
    T stack_w[kStackValueDims];
    thread_local std::vector<T> heap_w;
    if (dv > kStackValueDims) heap_w.resize(std::size_t(dv));
    T* w_data = dv > kStackValueDims ? heap_w.data() : stack_w;
    std::fill(w_data, w_data + dv, T(0));
    const ConstVector<T> w(w_data, dv);
    for (int i = 0; i < n; ++i) {
      const T s = scale * qv.dot(ConstVector<T>(k + std::size_t(i) * std::size_t(ld_k), d));
      fold_token(m, u, w_data, s, v + std::size_t(i) * std::size_t(ld_v), dv);
      Vector<T>(o + std::size_t(i) * std::size_t(ld_o), dv) = w * (T(1) / u);
      if (log_z) log_z[i] = m + std::log(u);
    }
  }
}

template <class T>
void prefix_softmax_backward(T* ds, T* dv_out, const T* g, const T* s, const T* v, const T* o,
                             const T* log_z, T* r, int n, int dv, int ld_v, int ld_o, int ld_g, int ld_dv) {
  Vector<T> big_r(r, dv);
  big_r.setZero();
  T big_q = 0;
  for (int i = n - 1; i >= 0; --i) {
    const ConstVector<T> gi(g + std::size_t(i) * std::size_t(ld_g), dv);
    const ConstVector<T> oi(o + std::size_t(i) * std::size_t(ld_o), dv);
    const ConstVector<T> vi(v + std::size_t(i) * std::size_t(ld_v), dv);
    // The gate exp(logZ_i - logZ_{i+1}) is at most 1: the normalizer only grows with the prefix.
    const T gate = i + 1 < n ? std::exp(log_z[i] - log_z[i + 1]) : T(0);
    big_r = gi + gate * big_r;
    big_q = gi.dot(oi) + gate * big_q;
    const T p = std::exp(s[i] - log_z[i]);
    Vector<T>(dv_out + std::size_t(i) * std::size_t(ld_dv), dv) = p * big_r;
    ds[i] = p * (vi.dot(big_r) - big_q);
  }
}

#define AAREN_INSTANTIATE(T)                                                                     \
  template void prefix_attention_forward<T>(T*, T*, const T*, const T*, const T*, int, int, int, T, \
                                            int, int, int);                                      \
  template void prefix_softmax_backward<T>(T*, T*, const T*, const T*, const T*, const T*,         \
                                           const T*, T*, int, int, int, int, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
