#include "core/model/mixer.hpp"

#include <algorithm>
#include <cmath>

#include "core/attention/prefix_attention.hpp"
#include "core/nn/causal_attention.hpp"
#include "core/nn/linear.hpp"
#include "core/util/step_profile.hpp"

namespace aaren {

namespace {

// The chunk for these heads, no longer than the sequences the buffers hold.
int chunk_for(int capacity, int d_model, int heads) {
  return std::max(1, std::min(linear_attention_chunk(d_model / heads), capacity));
}

}  // namespace

std::size_t linear_attention_scratch_values(int capacity, int d_model, int heads) {
  const std::size_t chunk = std::size_t(chunk_for(capacity, d_model, heads)), dh = std::size_t(d_model / heads);
  return 2 * chunk * chunk + chunk * (dh + 1) + dh * dh + dh;
}

template <class T>
MixerWeights<T> mixer_weights(const T* p, const BlockOffsets& b) {
  return {b.q0 == ParameterLayout::kNone ? nullptr : p + b.q0,
          p + b.wq_w, p + b.wq_b, p + b.wk_w, p + b.wk_b, p + b.wv_w, p + b.wv_b, p + b.wo_w, p + b.wo_b};
}

template <class T>
MixerGrads<T> mixer_grads(T* g, const BlockOffsets& b) {
  return {b.q0 == ParameterLayout::kNone ? nullptr : g + b.q0,
          g + b.wq_w, g + b.wq_b, g + b.wk_w, g + b.wk_b, g + b.wv_w, g + b.wv_b, g + b.wo_w, g + b.wo_b};
}

template <class T>
MixerCache<T>::MixerCache(ModelKind kind, int capacity, int d_model, int heads) {
  const std::size_t lc = std::size_t(capacity) * std::size_t(d_model);
  q.assign(kind == ModelKind::aaren ? std::size_t(d_model) : lc, T(0));
  k.assign(lc, T(0));
  v.assign(lc, T(0));
  att.assign(lc, T(0));
  const std::size_t per_head = std::size_t(heads) * std::size_t(capacity);
  switch (kind) {
    case ModelKind::aaren: log_z.assign(per_head, T(0)); break;
    case ModelKind::transformer: probs.assign(per_head * std::size_t(capacity), T(0)); break;
    case ModelKind::linear:
      den.assign(per_head, T(0));
      linear.emplace(d_model, heads, chunk_for(capacity, d_model, heads));
      break;
  }
}

template <class T>
MixerScratch<T>::MixerScratch(ModelKind kind, int capacity, int d_model, int heads) {
  if (kind == ModelKind::linear) linear.emplace(d_model, heads, chunk_for(capacity, d_model, heads));
  const std::size_t lc = std::size_t(capacity) * std::size_t(d_model);
  for (auto* buffer : {&datt, &dq, &dk, &dv, &dx}) buffer->assign(lc, T(0));
  scores.assign(std::size_t(capacity), T(0));
  dscores.assign(std::size_t(kind == ModelKind::transformer ? causal_attention_scratch_size(capacity) : capacity), T(0));
  r.assign(std::size_t(d_model), T(0));
  dq0.assign(std::size_t(d_model), T(0));
}

template <class T>
void mixer_forward(T* out, MixerCache<T>& cache, const T* x, const MixerWeights<T>& w, ModelKind kind, int L,
                   int C, int H) {
  linear_forward(cache.k.data(), x, w.wk_w, w.wk_b, L, C, C);
  linear_forward(cache.v.data(), x, w.wv_w, w.wv_b, L, C, C);
  if (kind == ModelKind::aaren) {
    const int dh = C / H;
    const T scale = T(1) / std::sqrt(T(dh));
    linear_forward(cache.q.data(), w.q0, w.wq_w, w.wq_b, 1, C, C);
    const profile::Scope scope(profile::Part::attention);
    for (int h = 0; h < H; ++h)
      prefix_attention_forward(cache.att.data() + h * dh, cache.log_z.data() + std::size_t(h) * std::size_t(L),
                               cache.q.data() + h * dh, cache.k.data() + h * dh, cache.v.data() + h * dh, L, dh, dh,
                               scale, C, C, C);
  } else {
    linear_forward(cache.q.data(), x, w.wq_w, w.wq_b, L, C, C);
    const profile::Scope scope(profile::Part::attention);
    if (kind == ModelKind::transformer) {
      causal_attention_forward(cache.att.data(), cache.probs.data(), cache.q.data(), cache.k.data(),
                               cache.v.data(), L, C, H);
    } else {
      const std::size_t lc = std::size_t(L) * std::size_t(C);
      elu_plus_one_forward(cache.q.data(), lc);
      elu_plus_one_forward(cache.k.data(), lc);
      causal_linear_attention_forward(cache.att.data(), cache.den.data(), *cache.linear, cache.q.data(),
                                      cache.k.data(), cache.v.data(), L, C, H);
    }
  }
  linear_forward(out, cache.att.data(), w.wo_w, w.wo_b, L, C, C);
}

template <class T>
void mixer_backward(T* dx, const MixerGrads<T>& g, MixerScratch<T>& s, const T* dout, const T* x,
                    const MixerCache<T>& cache, const MixerWeights<T>& w, ModelKind kind, int L, int C, int H) {
  const std::size_t lc = std::size_t(L) * std::size_t(C);
  linear_backward(s.datt.data(), g.wo_w, g.wo_b, dout, cache.att.data(), w.wo_w, L, C, C);
  if (kind == ModelKind::aaren) {
    // Scores are recomputed (L per head) rather than stored; the backward of the scan gives
    // dL/dscores and dL/dV, and the chain rule through s_i = scale * q . k_i gives dq and dK.
    const int dh = C / H;
    const T scale = T(1) / std::sqrt(T(dh));
    std::fill(s.dq.begin(), s.dq.begin() + C, T(0));
    for (int h = 0; h < H; ++h) {
      const profile::Scope scope(profile::Part::attention);
      const T* qh = cache.q.data() + h * dh;
      for (int i = 0; i < L; ++i) {
        const T* ki = cache.k.data() + std::size_t(i) * std::size_t(C) + std::size_t(h * dh);
        T dot = 0;
        for (int j = 0; j < dh; ++j) dot += qh[j] * ki[j];
        s.scores[std::size_t(i)] = scale * dot;
      }
      prefix_softmax_backward(s.dscores.data(), s.dv.data() + h * dh, s.datt.data() + h * dh, s.scores.data(),
                              cache.v.data() + h * dh, cache.att.data() + h * dh,
                              cache.log_z.data() + std::size_t(h) * std::size_t(L), s.r.data(), L, dh, C, C, C, C);
      T* dqh = s.dq.data() + h * dh;
      for (int i = 0; i < L; ++i) {
        const T ds = scale * s.dscores[std::size_t(i)];
        const T* ki = cache.k.data() + std::size_t(i) * std::size_t(C) + std::size_t(h * dh);
        T* dki = s.dk.data() + std::size_t(i) * std::size_t(C) + std::size_t(h * dh);
        for (int j = 0; j < dh; ++j) {
          dki[j] = ds * qh[j];
          dqh[j] += ds * ki[j];
        }
      }
    }
    linear_backward(s.dq0.data(), g.wq_w, g.wq_b, s.dq.data(), w.q0, w.wq_w, 1, C, C);
    for (int j = 0; j < C; ++j) g.q0[j] += s.dq0[std::size_t(j)];
    linear_backward(dx, g.wk_w, g.wk_b, s.dk.data(), x, w.wk_w, L, C, C);
  } else {
    if (kind == ModelKind::transformer) {
      const profile::Scope scope(profile::Part::attention);
      causal_attention_backward(s.dq.data(), s.dk.data(), s.dv.data(), s.dscores.data(), s.datt.data(),
                                cache.q.data(), cache.k.data(), cache.v.data(), cache.probs.data(), L, C, H);
    } else {
      const profile::Scope scope(profile::Part::attention);
      causal_linear_attention_backward(s.dq.data(), s.dk.data(), s.dv.data(), *s.linear, s.datt.data(),
                                       cache.q.data(), cache.k.data(), cache.v.data(), cache.att.data(),
                                       cache.den.data(), L, C, H);
      elu_plus_one_backward(s.dq.data(), cache.q.data(), lc);
      elu_plus_one_backward(s.dk.data(), cache.k.data(), lc);
    }
    linear_backward(dx, g.wq_w, g.wq_b, s.dq.data(), x, w.wq_w, L, C, C);
    linear_backward(s.dx.data(), g.wk_w, g.wk_b, s.dk.data(), x, w.wk_w, L, C, C);
    for (std::size_t i = 0; i < lc; ++i) dx[i] += s.dx[i];
  }
  linear_backward(s.dx.data(), g.wv_w, g.wv_b, s.dv.data(), x, w.wv_w, L, C, C);
  for (std::size_t i = 0; i < lc; ++i) dx[i] += s.dx[i];
}

#define AAREN_INSTANTIATE(T)                                                                               \
  template MixerWeights<T> mixer_weights<T>(const T*, const BlockOffsets&);                                \
  template MixerGrads<T> mixer_grads<T>(T*, const BlockOffsets&);                                          \
  template struct MixerCache<T>;                                                                           \
  template struct MixerScratch<T>;                                                                         \
  template void mixer_forward<T>(T*, MixerCache<T>&, const T*, const MixerWeights<T>&, ModelKind, int, int, \
                                 int);                                                                     \
  template void mixer_backward<T>(T*, const MixerGrads<T>&, MixerScratch<T>&, const T*, const T*,           \
                                  const MixerCache<T>&, const MixerWeights<T>&, ModelKind, int, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
