#include "core/model/forecast_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/nn/ffn.hpp"
#include "core/nn/instance_norm.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/nn/positional_encoding.hpp"

namespace aaren {

namespace {
std::size_t sz(long n) { return std::size_t(n); }
}  // namespace

template <class T>
ForwardState<T>::ForwardState(const ModelConfig& c) : L(c.seq_len), D(c.d_model) {
  const long l = c.seq_len, d = c.d_model, n = c.layers, f = c.d_ff, ch = c.channels;
  pe.assign(sz(l * d), T(0));
  positional_encoding(pe.data(), c.seq_len, c.d_model);
  xn.assign(sz(l * ch), T(0));
  in_mean.assign(sz(ch), T(0));
  in_sigma.assign(sz(ch), T(0));
  h.assign(sz((n + 1) * l * d), T(0));
  ln1.assign(sz(n * l * d), T(0));
  ln1_mean.assign(sz(n * l), T(0));
  ln1_rstd.assign(sz(n * l), T(0));
  for (int i = 0; i < c.layers; ++i) mixer.emplace_back(c.kind, c.seq_len, c.d_model, c.heads);
  h_mid.assign(sz(n * l * d), T(0));
  ln2.assign(sz(n * l * d), T(0));
  ln2_mean.assign(sz(n * l), T(0));
  ln2_rstd.assign(sz(n * l), T(0));
  ffn_pre.assign(sz(n * l * f), T(0));
  ffn_act.assign(sz(n * l * f), T(0));
  branch.assign(sz(l * d), T(0));
  lnf.assign(sz(d), T(0));
  lnf_mean.assign(1, T(0));
  lnf_rstd.assign(1, T(0));
  head_out.assign(sz(long(c.horizon) * ch), T(0));
  y.assign(sz(long(c.horizon) * ch), T(0));
}

template <class T>
const T* ForwardState<T>::hidden(int layer_output) const {
  return h.data() + sz(long(layer_output) * L * D);
}

std::size_t forward_state_bytes(const ModelConfig& c, std::size_t scalar_bytes) {
  const double l = c.seq_len, d = c.d_model, n = c.layers, f = c.d_ff, ch = c.channels, h = c.heads;
  const double mixer = c.kind == ModelKind::aaren ? d + 3 * l * d + h * l : 4 * l * d + h * l * l;
  const double values = l * ch + 2 * ch + l * d + (n + 1) * l * d + n * (3 * l * d + 4 * l + 2 * l * f + mixer) +
                        l * d + d + 2 + 2 * double(c.horizon) * ch;
  return std::size_t(values * double(scalar_bytes));
}

template <class T>
BackwardScratch<T>::BackwardScratch(const ModelConfig& c) : mixer(c.seq_len, c.d_model) {
  const long l = c.seq_len, d = c.d_model;
  dh.assign(sz(l * d), T(0));
  dbranch.assign(sz(l * d), T(0));
  dln.assign(sz(l * d), T(0));
  dffn_act.assign(sz(l * c.d_ff), T(0));
  dhead.assign(sz(long(c.horizon) * c.channels), T(0));
  dlnf.assign(sz(d), T(0));
}

template <class T>
void forecast_forward(ForwardState<T>& s, const T* p, const ParameterLayout& layout, const ModelConfig& c,
                      const T* x) {
  const int L = c.seq_len, D = c.d_model, F = c.d_ff, C = c.channels, H = c.heads;
  const std::size_t ld = sz(long(L) * D), lf = sz(long(L) * F);
  instance_norm_forward(s.xn.data(), s.in_mean.data(), s.in_sigma.data(), x, L, C);
  T* h0 = s.h.data();
  linear_forward(h0, s.xn.data(), p + layout.embed_w, p + layout.embed_b, L, C, D);
  for (std::size_t i = 0; i < ld; ++i) h0[i] += s.pe[i];

  for (int l = 0; l < c.layers; ++l) {
    const BlockOffsets& b = layout.blocks[sz(l)];
    const T* h_in = s.h.data() + sz(l) * ld;
    T* ln1 = s.ln1.data() + sz(l) * ld;
    T* h_mid = s.h_mid.data() + sz(l) * ld;
    T* ln2 = s.ln2.data() + sz(l) * ld;
    T* h_out = s.h.data() + sz(l + 1) * ld;
    layernorm_forward(ln1, s.ln1_mean.data() + sz(l) * sz(L), s.ln1_rstd.data() + sz(l) * sz(L), h_in, p + b.ln1_w,
                      p + b.ln1_b, L, D);
    mixer_forward(s.branch.data(), s.mixer[sz(l)], ln1, mixer_weights(p, b), c.kind, L, D, H);
    for (std::size_t i = 0; i < ld; ++i) h_mid[i] = h_in[i] + s.branch[i];
    layernorm_forward(ln2, s.ln2_mean.data() + sz(l) * sz(L), s.ln2_rstd.data() + sz(l) * sz(L), h_mid, p + b.ln2_w,
                      p + b.ln2_b, L, D);
    ffn_forward(s.branch.data(), s.ffn_pre.data() + sz(l) * lf, s.ffn_act.data() + sz(l) * lf, ln2, p + b.fc1_w,
                p + b.fc1_b, p + b.fc2_w, p + b.fc2_b, L, D, F);
    for (std::size_t i = 0; i < ld; ++i) h_out[i] = h_mid[i] + s.branch[i];
  }

  const T* last = s.hidden(c.layers) + sz(long(L - 1) * D);
  layernorm_forward(s.lnf.data(), s.lnf_mean.data(), s.lnf_rstd.data(), last, p + layout.lnf_w, p + layout.lnf_b, 1, D);
  linear_forward(s.head_out.data(), s.lnf.data(), p + layout.head_w, p + layout.head_b, 1, D, c.horizon * C);
  instance_denorm_forward(s.y.data(), s.head_out.data(), s.in_mean.data(), s.in_sigma.data(), c.horizon, C);
}

template <class T>
void forecast_backward(T* g, BackwardScratch<T>& k, const ForwardState<T>& s, const T* p,
                       const ParameterLayout& layout, const ModelConfig& c, const T* dy) {
  const int L = c.seq_len, D = c.d_model, F = c.d_ff, C = c.channels, H = c.heads;
  const std::size_t ld = sz(long(L) * D), lf = sz(long(L) * F);
  instance_denorm_backward(k.dhead.data(), dy, s.in_sigma.data(), c.horizon, C);
  linear_backward(k.dlnf.data(), g + layout.head_w, g + layout.head_b, k.dhead.data(), s.lnf.data(),
                  p + layout.head_w, 1, D, c.horizon * C);
  // Only the last token feeds the head: the gradient of the other positions starts at zero.
  std::fill(k.dh.begin(), k.dh.end(), T(0));
  const T* last = s.hidden(c.layers) + sz(long(L - 1) * D);
  layernorm_backward(k.dh.data() + sz(long(L - 1) * D), g + layout.lnf_w, g + layout.lnf_b, k.dlnf.data(), last,
                     p + layout.lnf_w, s.lnf_mean.data(), s.lnf_rstd.data(), 1, D);

  for (int l = c.layers - 1; l >= 0; --l) {
    const BlockOffsets& b = layout.blocks[sz(l)];
    const T* h_in = s.h.data() + sz(l) * ld;
    const T* ln1 = s.ln1.data() + sz(l) * ld;
    const T* h_mid = s.h_mid.data() + sz(l) * ld;
    const T* ln2 = s.ln2.data() + sz(l) * ld;
    // k.dh holds dL/dh_out; h_out = h_mid + FFN(LN2(h_mid)).
    ffn_backward(k.dln.data(), g + b.fc1_w, g + b.fc1_b, g + b.fc2_w, g + b.fc2_b, k.dffn_act.data(), k.dh.data(),
                 ln2, s.ffn_pre.data() + sz(l) * lf, s.ffn_act.data() + sz(l) * lf, p + b.fc1_w, p + b.fc2_w, L, D, F);
    layernorm_backward(k.dbranch.data(), g + b.ln2_w, g + b.ln2_b, k.dln.data(), h_mid, p + b.ln2_w,
                       s.ln2_mean.data() + sz(l) * sz(L), s.ln2_rstd.data() + sz(l) * sz(L), L, D);
    for (std::size_t i = 0; i < ld; ++i) k.dh[i] += k.dbranch[i];
    // k.dh holds dL/dh_mid; h_mid = h_in + Mixer(LN1(h_in)).
    mixer_backward(k.dln.data(), mixer_grads(g, b), k.mixer, k.dh.data(), ln1, s.mixer[sz(l)], mixer_weights(p, b),
                   c.kind, L, D, H);
    layernorm_backward(k.dbranch.data(), g + b.ln1_w, g + b.ln1_b, k.dln.data(), h_in, p + b.ln1_w,
                       s.ln1_mean.data() + sz(l) * sz(L), s.ln1_rstd.data() + sz(l) * sz(L), L, D);
    for (std::size_t i = 0; i < ld; ++i) k.dh[i] += k.dbranch[i];
  }
  // The input is data: only the embedding's weights need a gradient.
  linear_backward<T>(nullptr, g + layout.embed_w, g + layout.embed_b, k.dh.data(), s.xn.data(), p + layout.embed_w,
                     L, C, D);
}

template <class T>
T mse_loss(T* dy, const T* y, const T* truth, int n) {
  T total = 0;
  for (int i = 0; i < n; ++i) {
    const T diff = y[i] - truth[i];
    total += diff * diff;
    if (dy) dy[i] = T(2) * diff / T(n);
  }
  return total / T(n);
}

template <class T>
void init_parameters(std::vector<T>& params, const ParameterLayout& layout, std::mt19937& rng) {
  params.assign(layout.total(), T(0));
  std::normal_distribution<double> normal(0.0, 1.0);
  for (const ParameterEntry& e : layout.entries()) {
    T* w = params.data() + e.offset;
    const auto ends_with = [&](const std::string& suffix) {
      return e.name.size() >= suffix.size() &&
             e.name.compare(e.name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const bool layer_norm = ends_with("ln1.weight") || ends_with("ln2.weight") || ends_with("ln_f.weight") ||
                            ends_with("ln1.bias") || ends_with("ln2.bias") || ends_with("ln_f.bias");
    if (layer_norm) {
      std::fill(w, w + e.size, ends_with(".weight") ? T(1) : T(0));
    } else if (ends_with("q0")) {
      for (std::size_t i = 0; i < e.size; ++i) w[i] = T(normal(rng));
    } else {
      // A weight (out, in) and its bias share the bound 1/sqrt(in); a bias finds its weight just before it.
      const ParameterEntry& weight = ends_with(".bias") ? *(&e - 1) : e;
      const double bound = 1.0 / std::sqrt(double(weight.shape.back()));
      std::uniform_real_distribution<double> uniform(-bound, bound);
      for (std::size_t i = 0; i < e.size; ++i) w[i] = T(uniform(rng));
    }
  }
}

#define AAREN_INSTANTIATE(T)                                                                                 \
  template struct ForwardState<T>;                                                                           \
  template struct BackwardScratch<T>;                                                                        \
  template void forecast_forward<T>(ForwardState<T>&, const T*, const ParameterLayout&, const ModelConfig&,   \
                                    const T*);                                                               \
  template void forecast_backward<T>(T*, BackwardScratch<T>&, const ForwardState<T>&, const T*,               \
                                     const ParameterLayout&, const ModelConfig&, const T*);                   \
  template T mse_loss<T>(T*, const T*, const T*, int);                                                        \
  template void init_parameters<T>(std::vector<T>&, const ParameterLayout&, std::mt19937&);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
