#include "core/classify/classifier_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/nn/positional_encoding.hpp"
#include "core/nn/softmax.hpp"

namespace aaren {

namespace {

std::size_t sz(long n) { return std::size_t(n); }

// The forecasting model's instance norm epsilon (docs/DESIGN.md section 4).
constexpr double kInstanceNormEps = 1e-5;

// Validates before the backbone's buffers are sized from the config.
const ClassifierConfig& validated(const ClassifierConfig& config) {
  config.validate();
  return config;
}

}  // namespace

template <class T>
ClassifierState<T>::ClassifierState(const ClassifierConfig& c) : BackboneState<T>(validated(c).backbone) {
  const long l = c.backbone.seq_len, d = c.backbone.d_model, ch = c.backbone.channels;
  pe.assign(sz(l * d), T(0));
  positional_encoding(pe.data(), c.backbone.seq_len, c.backbone.d_model);
  xn.assign(sz(l * ch), T(0));
  in_mean.assign(sz(ch), T(0));
  in_sigma.assign(sz(ch), T(1));
  pooled.assign(sz(d), T(0));
  lnf.assign(sz(d), T(0));
  lnf_mean.assign(1, T(0));
  lnf_rstd.assign(1, T(0));
  logits.assign(sz(c.classes), T(0));
  probs.assign(sz(c.classes), T(0));
}

template <class T>
ClassifierScratch<T>::ClassifierScratch(const ClassifierConfig& c) : BackboneScratch<T>(validated(c).backbone) {
  dlogits.assign(sz(c.classes), T(0));
  dlnf.assign(sz(c.backbone.d_model), T(0));
  dpooled.assign(sz(c.backbone.d_model), T(0));
}

template <class T>
void classifier_normalize_input(T* xn, T* mean, T* sigma, const T* x, int n, int C, bool instance_norm) {
  for (int c = 0; c < C; ++c) {
    mean[c] = T(0);
    sigma[c] = T(1);
  }
  if (instance_norm) {
    // Statistics over the present values only: a missing value says nothing about the series' scale.
    for (int c = 0; c < C; ++c) {
      T sum = 0;
      long present = 0;
      for (int i = 0; i < n; ++i) {
        const T v = x[long(i) * C + c];
        if (std::isnan(v)) continue;
        sum += v;
        ++present;
      }
      if (present == 0) continue;  // an all-missing channel: zeros below, whatever mean and sigma are
      const T m = sum / T(present);
      T squares = 0;
      for (int i = 0; i < n; ++i) {
        const T v = x[long(i) * C + c];
        if (std::isnan(v)) continue;
        squares += (v - m) * (v - m);
      }
      mean[c] = m;
      sigma[c] = std::sqrt(squares / T(present) + T(kInstanceNormEps));
    }
  }
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < C; ++c) {
      const T v = x[long(i) * C + c];
      xn[long(i) * C + c] = std::isnan(v) ? T(0) : (v - mean[c]) / sigma[c];
    }
}

template <class T>
void class_probabilities(T* probs, const T* logits, int K) {
  softmax(probs, logits, K);
}

template <class T>
void classifier_forward(ClassifierState<T>& s, const T* p, const ParameterLayout& layout, const ClassifierConfig& c,
                        const T* x, int n) {
  const int D = c.backbone.d_model, C = c.backbone.channels, K = c.classes;
  if (n < 1 || n > s.capacity)
    throw std::invalid_argument("the series has " + std::to_string(n) + " time steps; the model takes 1 to " +
                                std::to_string(s.capacity) + " (its seq_len)");
  s.n = n;
  classifier_normalize_input(s.xn.data(), s.in_mean.data(), s.in_sigma.data(), x, n, C, c.instance_norm);

  T* h0 = s.input();
  linear_forward(h0, s.xn.data(), p + layout.embed_w, p + layout.embed_b, n, C, D);
  const std::size_t nd = sz(long(n) * D);
  for (std::size_t i = 0; i < nd; ++i) h0[i] += s.pe[i];
  backbone_forward<T>(s, p, layout, c.backbone, n);

  const T* h = s.hidden(c.backbone.layers);
  if (c.pooling == ClassifierPooling::mean) {
    std::fill(s.pooled.begin(), s.pooled.end(), T(0));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < D; ++j) s.pooled[sz(j)] += h[long(i) * D + j];
    for (int j = 0; j < D; ++j) s.pooled[sz(j)] /= T(n);
  } else {
    std::copy(h + long(n - 1) * D, h + long(n) * D, s.pooled.begin());
  }
  layernorm_forward(s.lnf.data(), s.lnf_mean.data(), s.lnf_rstd.data(), s.pooled.data(), p + layout.lnf_w,
                    p + layout.lnf_b, 1, D);
  linear_forward(s.logits.data(), s.lnf.data(), p + layout.head_w, p + layout.head_b, 1, D, K);
  class_probabilities(s.probs.data(), s.logits.data(), K);
}

template <class T>
T classifier_loss(T* dlogits, const ClassifierState<T>& s, const ClassifierConfig& c, int label, T weight) {
  const int K = c.classes;
  if (label < 0 || label >= K)
    throw std::invalid_argument("label " + std::to_string(label) + " is not one of the model's " + std::to_string(K) +
                                " classes (0 to " + std::to_string(K - 1) + ")");
  // -sum_k q_k log p_k with log p_k = logit_k - logZ and sum_k q_k = 1:
  //   logZ - (1 - eps) logit_label - (eps / K) sum_k logit_k.
  const T eps = T(c.label_smoothing), spread = eps / T(K);
  const T* logits = s.logits.data();
  const T log_z = log_sum_exp(logits, K);
  T loss = log_z - (T(1) - eps) * logits[label];
  if (eps > T(0)) {
    T sum = 0;
    for (int k = 0; k < K; ++k) sum += logits[k];
    loss -= spread * sum;
  }
  if (dlogits) {
    for (int k = 0; k < K; ++k) {
      const T target = (k == label ? T(1) - eps : T(0)) + spread;
      dlogits[k] = weight * (std::exp(logits[k] - log_z) - target);
    }
  }
  return loss;
}

template <class T>
void classifier_backward(T* g, ClassifierScratch<T>& k, const ClassifierState<T>& s, const T* p,
                         const ParameterLayout& layout, const ClassifierConfig& c, const T* dlogits) {
  const int n = s.n, D = c.backbone.d_model, C = c.backbone.channels, K = c.classes;
  linear_backward(k.dlnf.data(), g + layout.head_w, g + layout.head_b, dlogits, s.lnf.data(), p + layout.head_w, 1, D,
                  K);
  layernorm_backward(k.dpooled.data(), g + layout.lnf_w, g + layout.lnf_b, k.dlnf.data(), s.pooled.data(),
                     p + layout.lnf_w, s.lnf_mean.data(), s.lnf_rstd.data(), 1, D);
  // The pooling spreads dL/dpooled over the rows it read: 1/n of it to each (mean), or all to the last.
  T* dh = k.dh.data();
  std::fill(dh, dh + sz(long(n) * D), T(0));
  if (c.pooling == ClassifierPooling::mean) {
    const T share = T(1) / T(n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < D; ++j) dh[long(i) * D + j] = k.dpooled[sz(j)] * share;
  } else {
    std::copy(k.dpooled.begin(), k.dpooled.end(), dh + long(n - 1) * D);
  }
  backbone_backward<T>(g, k, s, p, layout, c.backbone, n);
  // The input is data (its normalization has no parameters): only the embedding needs a gradient.
  linear_backward<T>(nullptr, g + layout.embed_w, g + layout.embed_b, dh, s.xn.data(), p + layout.embed_w, n, C, D);
}

#define AAREN_INSTANTIATE(T)                                                                                     \
  template struct ClassifierState<T>;                                                                            \
  template struct ClassifierScratch<T>;                                                                          \
  template void classifier_normalize_input<T>(T*, T*, T*, const T*, int, int, bool);                            \
  template void class_probabilities<T>(T*, const T*, int);                                                       \
  template void classifier_forward<T>(ClassifierState<T>&, const T*, const ParameterLayout&,                     \
                                      const ClassifierConfig&, const T*, int);                                   \
  template T classifier_loss<T>(T*, const ClassifierState<T>&, const ClassifierConfig&, int, T);                 \
  template void classifier_backward<T>(T*, ClassifierScratch<T>&, const ClassifierState<T>&, const T*,           \
                                       const ParameterLayout&, const ClassifierConfig&, const T*);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
