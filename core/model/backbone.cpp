#include "core/model/backbone.hpp"

#include "core/nn/causal_attention.hpp"
#include "core/nn/ffn.hpp"
#include "core/nn/layernorm.hpp"

namespace aaren {

namespace {
std::size_t sz(long n) { return std::size_t(n); }
}  // namespace

template <class T>
BackboneState<T>::BackboneState(const ModelConfig& c) : capacity(c.seq_len), D(c.d_model) {
  const long l = c.seq_len, d = c.d_model, n = c.layers, f = c.d_ff;
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
}

template <class T>
const T* BackboneState<T>::hidden(int layer_output) const {
  return h.data() + sz(long(layer_output) * capacity * D);
}

std::size_t backbone_state_bytes(const ModelConfig& c, std::size_t scalar_bytes) {
  const double l = c.seq_len, d = c.d_model, n = c.layers, f = c.d_ff, h = c.heads;
  // MixerCache: q, k, v, att and the kind's own (H, L) or (H, L, L) (and the linear one's chunk buffers).
  double mixer = 0;
  switch (c.kind) {
    case ModelKind::aaren: mixer = d + 3 * l * d + h * l; break;
    case ModelKind::transformer: mixer = 4 * l * d + h * l * l; break;
    case ModelKind::linear:
      mixer = 4 * l * d + h * l + double(linear_attention_scratch_values(c.seq_len, c.d_model, c.heads));
      break;
  }
  const double values = (n + 1) * l * d + n * (3 * l * d + 4 * l + 2 * l * f + mixer) + l * d;
  return std::size_t(values * double(scalar_bytes));
}

std::size_t backbone_scratch_bytes(const ModelConfig& c, std::size_t scalar_bytes) {
  const double l = c.seq_len, d = c.d_model, f = c.d_ff;
  // MixerScratch: datt, dq, dk, dv, dx, scores, dscores, r, dq0 (and the linear attention's scan
  // buffers); then dh, dbranch, dln and dffn_act.
  const double linear =
      c.kind == ModelKind::linear ? double(linear_attention_scratch_values(c.seq_len, c.d_model, c.heads)) : 0;
  // The Transformer's dscores holds a head's (L, L) gradient of the weights and a row sum.
  const double dscores = c.kind == ModelKind::transformer ? double(causal_attention_scratch_size(c.seq_len)) : l;
  const double values = 5 * l * d + l + dscores + 2 * d + linear + 3 * l * d + l * f;
  return std::size_t(values * double(scalar_bytes));
}

template <class T>
BackboneScratch<T>::BackboneScratch(const ModelConfig& c) : mixer(c.kind, c.seq_len, c.d_model, c.heads) {
  const long l = c.seq_len, d = c.d_model;
  dh.assign(sz(l * d), T(0));
  dbranch.assign(sz(l * d), T(0));
  dln.assign(sz(l * d), T(0));
  dffn_act.assign(sz(l * c.d_ff), T(0));
}

template <class T>
void backbone_forward(BackboneState<T>& s, const T* p, const ParameterLayout& layout, const ModelConfig& c, int n) {
  const int D = c.d_model, F = c.d_ff, H = c.heads;
  // Per-layer slices are `capacity` tokens apart whatever n is; n tokens are computed.
  const std::size_t stride_d = sz(long(s.capacity) * D), stride_f = sz(long(s.capacity) * F);
  const std::size_t stride_stat = sz(s.capacity), nd = sz(long(n) * D);
  for (int l = 0; l < c.layers; ++l) {
    const BlockOffsets& b = layout.blocks[sz(l)];
    const T* h_in = s.h.data() + sz(l) * stride_d;
    T* ln1 = s.ln1.data() + sz(l) * stride_d;
    T* h_mid = s.h_mid.data() + sz(l) * stride_d;
    T* ln2 = s.ln2.data() + sz(l) * stride_d;
    T* h_out = s.h.data() + sz(l + 1) * stride_d;
    layernorm_forward(ln1, s.ln1_mean.data() + sz(l) * stride_stat, s.ln1_rstd.data() + sz(l) * stride_stat, h_in,
                      p + b.ln1_w, p + b.ln1_b, n, D);
    mixer_forward(s.branch.data(), s.mixer[sz(l)], ln1, mixer_weights(p, b), c.kind, n, D, H);
    for (std::size_t i = 0; i < nd; ++i) h_mid[i] = h_in[i] + s.branch[i];
    layernorm_forward(ln2, s.ln2_mean.data() + sz(l) * stride_stat, s.ln2_rstd.data() + sz(l) * stride_stat, h_mid,
                      p + b.ln2_w, p + b.ln2_b, n, D);
    ffn_forward(s.branch.data(), s.ffn_pre.data() + sz(l) * stride_f, s.ffn_act.data() + sz(l) * stride_f, ln2,
                p + b.fc1_w, p + b.fc1_b, p + b.fc2_w, p + b.fc2_b, n, D, F);
    for (std::size_t i = 0; i < nd; ++i) h_out[i] = h_mid[i] + s.branch[i];
  }
}

template <class T>
void backbone_backward(T* g, BackboneScratch<T>& k, const BackboneState<T>& s, const T* p,
                       const ParameterLayout& layout, const ModelConfig& c, int n) {
  const int D = c.d_model, F = c.d_ff, H = c.heads;
  const std::size_t stride_d = sz(long(s.capacity) * D), stride_f = sz(long(s.capacity) * F);
  const std::size_t stride_stat = sz(s.capacity), nd = sz(long(n) * D);
  for (int l = c.layers - 1; l >= 0; --l) {
    const BlockOffsets& b = layout.blocks[sz(l)];
    const T* h_in = s.h.data() + sz(l) * stride_d;
    const T* ln1 = s.ln1.data() + sz(l) * stride_d;
    const T* h_mid = s.h_mid.data() + sz(l) * stride_d;
    const T* ln2 = s.ln2.data() + sz(l) * stride_d;
    // k.dh holds dL/dh_out; h_out = h_mid + FFN(LN2(h_mid)).
    ffn_backward(k.dln.data(), g + b.fc1_w, g + b.fc1_b, g + b.fc2_w, g + b.fc2_b, k.dffn_act.data(), k.dh.data(),
                 ln2, s.ffn_pre.data() + sz(l) * stride_f, s.ffn_act.data() + sz(l) * stride_f, p + b.fc1_w,
                 p + b.fc2_w, n, D, F);
    layernorm_backward(k.dbranch.data(), g + b.ln2_w, g + b.ln2_b, k.dln.data(), h_mid, p + b.ln2_w,
                       s.ln2_mean.data() + sz(l) * stride_stat, s.ln2_rstd.data() + sz(l) * stride_stat, n, D);
    for (std::size_t i = 0; i < nd; ++i) k.dh[i] += k.dbranch[i];
    // k.dh holds dL/dh_mid; h_mid = h_in + Mixer(LN1(h_in)).
    mixer_backward(k.dln.data(), mixer_grads(g, b), k.mixer, k.dh.data(), ln1, s.mixer[sz(l)], mixer_weights(p, b),
                   c.kind, n, D, H);
    layernorm_backward(k.dbranch.data(), g + b.ln1_w, g + b.ln1_b, k.dln.data(), h_in, p + b.ln1_w,
                       s.ln1_mean.data() + sz(l) * stride_stat, s.ln1_rstd.data() + sz(l) * stride_stat, n, D);
    for (std::size_t i = 0; i < nd; ++i) k.dh[i] += k.dbranch[i];
  }
}

#define AAREN_INSTANTIATE(T)                                                                                  \
  template struct BackboneState<T>;                                                                           \
  template struct BackboneScratch<T>;                                                                         \
  template void backbone_forward<T>(BackboneState<T>&, const T*, const ParameterLayout&, const ModelConfig&,  \
                                    int);                                                                     \
  template void backbone_backward<T>(T*, BackboneScratch<T>&, const BackboneState<T>&, const T*,              \
                                     const ParameterLayout&, const ModelConfig&, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
