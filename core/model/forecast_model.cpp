#include "core/model/forecast_model.hpp"

#include <algorithm>

#include "core/nn/instance_norm.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/nn/positional_encoding.hpp"

namespace aaren {

namespace {
std::size_t sz(long n) { return std::size_t(n); }
}  // namespace

template <class T>
ForwardState<T>::ForwardState(const ModelConfig& c) : BackboneState<T>(c) {
  const long l = c.seq_len, d = c.d_model, ch = c.channels;
  pe.assign(sz(l * d), T(0));
  positional_encoding(pe.data(), c.seq_len, c.d_model);
  xn.assign(sz(l * ch), T(0));
  in_mean.assign(sz(ch), T(0));
  in_sigma.assign(sz(ch), T(0));
  lnf.assign(sz(d), T(0));
  lnf_mean.assign(1, T(0));
  lnf_rstd.assign(1, T(0));
  head_out.assign(sz(long(c.horizon) * c.outputs()), T(0));
  y.assign(sz(long(c.horizon) * c.outputs()), T(0));
}

std::size_t forward_state_bytes(const ModelConfig& c, std::size_t scalar_bytes) {
  const double l = c.seq_len, d = c.d_model, ch = c.channels;
  const double values = l * ch + 2 * ch + l * d + d + 2 + 2 * double(c.horizon) * c.outputs();
  return backbone_state_bytes(c, scalar_bytes) + std::size_t(values * double(scalar_bytes));
}

template <class T>
BackwardScratch<T>::BackwardScratch(const ModelConfig& c) : BackboneScratch<T>(c) {
  dhead.assign(sz(long(c.horizon) * c.outputs()), T(0));
  dlnf.assign(sz(c.d_model), T(0));
}

template <class T>
void forecast_forward(ForwardState<T>& s, const T* p, const ParameterLayout& layout, const ModelConfig& c,
                      const T* x) {
  const int L = c.seq_len, D = c.d_model, C = c.channels;
  const std::size_t ld = sz(long(L) * D);
  instance_norm_forward(s.xn.data(), s.in_mean.data(), s.in_sigma.data(), x, L, C);
  T* h0 = s.input();
  linear_forward(h0, s.xn.data(), p + layout.embed_w, p + layout.embed_b, L, C, D);
  for (std::size_t i = 0; i < ld; ++i) h0[i] += s.pe[i];
  backbone_forward<T>(s, p, layout, c, L);
  const T* last = s.hidden(c.layers) + sz(long(L - 1) * D);
  layernorm_forward(s.lnf.data(), s.lnf_mean.data(), s.lnf_rstd.data(), last, p + layout.lnf_w, p + layout.lnf_b, 1, D);
  const int K = c.outputs(), first = c.first_output_channel();
  linear_forward(s.head_out.data(), s.lnf.data(), p + layout.head_w, p + layout.head_b, 1, D, c.horizon * K);
  // Each forecast channel goes back with its own input channel's statistics (MS: the target's).
  instance_denorm_forward(s.y.data(), s.head_out.data(), s.in_mean.data() + first, s.in_sigma.data() + first,
                          c.horizon, K);
}

template <class T>
void forecast_backward(T* g, BackwardScratch<T>& k, const ForwardState<T>& s, const T* p,
                       const ParameterLayout& layout, const ModelConfig& c, const T* dy) {
  const int L = c.seq_len, D = c.d_model, C = c.channels, K = c.outputs();
  instance_denorm_backward(k.dhead.data(), dy, s.in_sigma.data() + c.first_output_channel(), c.horizon, K);
  linear_backward(k.dlnf.data(), g + layout.head_w, g + layout.head_b, k.dhead.data(), s.lnf.data(),
                  p + layout.head_w, 1, D, c.horizon * K);
  // Only the last token feeds the head: the gradient of the other positions starts at zero.
  std::fill(k.dh.begin(), k.dh.end(), T(0));
  const T* last = s.hidden(c.layers) + sz(long(L - 1) * D);
  layernorm_backward(k.dh.data() + sz(long(L - 1) * D), g + layout.lnf_w, g + layout.lnf_b, k.dlnf.data(), last,
                     p + layout.lnf_w, s.lnf_mean.data(), s.lnf_rstd.data(), 1, D);
  backbone_backward<T>(g, k, s, p, layout, c, L);
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

#define AAREN_INSTANTIATE(T)                                                                                 \
  template struct ForwardState<T>;                                                                           \
  template struct BackwardScratch<T>;                                                                        \
  template void forecast_forward<T>(ForwardState<T>&, const T*, const ParameterLayout&, const ModelConfig&,   \
                                    const T*);                                                               \
  template void forecast_backward<T>(T*, BackwardScratch<T>&, const ForwardState<T>&, const T*,               \
                                     const ParameterLayout&, const ModelConfig&, const T*);                   \
  template T mse_loss<T>(T*, const T*, const T*, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
