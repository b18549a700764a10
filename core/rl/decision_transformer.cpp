#include "core/rl/decision_transformer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"

namespace aaren::rl {

namespace {

std::size_t sz(long n) { return std::size_t(n); }

const DecisionConfig& validated(const DecisionConfig& config) {
  config.validate();
  return config;
}

// Token k of step i (0 return-to-go, 1 state, 2 action) is row 3 i + k.
constexpr int kReturnToken = 0, kStateToken = 1, kActionToken = 2;

}  // namespace

int timestep_row(const DecisionConfig& config, int t) {
  if (t < 0) throw std::invalid_argument("timestep " + std::to_string(t) + " is negative");
  return std::min(t, config.max_timestep - 1);
}

template <class T>
DecisionState<T>::DecisionState(const DecisionConfig& c) : BackboneState<T>(validated(c).backbone) {
  const long k = c.context, d = c.backbone.d_model;
  embedded.assign(sz(3 * k * d), T(0));
  embed_mean.assign(sz(3 * k), T(0));
  embed_rstd.assign(sz(3 * k), T(0));
  by_kind.assign(sz(k * d), T(0));
  state_hidden.assign(sz(k * d), T(0));
  lnf.assign(sz(k * d), T(0));
  lnf_mean.assign(sz(k), T(0));
  lnf_rstd.assign(sz(k), T(0));
  predicted.assign(sz(k * c.action_dim), T(0));
  rows.assign(sz(k), 0);
}

template <class T>
DecisionScratch<T>::DecisionScratch(const DecisionConfig& c) : BackboneScratch<T>(validated(c).backbone) {
  const long k = c.context, d = c.backbone.d_model;
  dpredicted.assign(sz(k * c.action_dim), T(0));
  dlnf.assign(sz(k * d), T(0));
  dstate_hidden.assign(sz(k * d), T(0));
  dembedded.assign(sz(3 * k * d), T(0));
  dby_kind.assign(sz(k * d), T(0));
}

template <class T>
void decision_forward(DecisionState<T>& s, const T* p, const ParameterLayout& layout, const DecisionConfig& c,
                      const DecisionInputs<T>& in, int n) {
  const int D = c.backbone.d_model, S = c.state_dim, A = c.action_dim;
  if (n < 1 || n > c.context)
    throw std::invalid_argument("the segment has " + std::to_string(n) + " steps; the model takes 1 to " +
                                std::to_string(c.context) + " (its context)");
  s.n = n;
  for (int i = 0; i < n; ++i) s.rows[sz(i)] = timestep_row(c, in.timesteps[i]);

  // Each kind of token: its Linear over the n steps, then interleaved with the timestep's row added.
  const auto embed = [&](int kind, const T* x, int width, std::size_t w, std::size_t b) {
    linear_forward(s.by_kind.data(), x, p + w, p + b, n, width, D);
    for (int i = 0; i < n; ++i) {
      T* token = s.embedded.data() + (3L * i + kind) * D;
      const T* e = p + layout.timestep_embed + long(s.rows[sz(i)]) * D;
      const T* v = s.by_kind.data() + long(i) * D;
      for (int j = 0; j < D; ++j) token[j] = v[j] + e[j];
    }
  };
  embed(kReturnToken, in.returns_to_go, 1, layout.return_embed_w, layout.return_embed_b);
  embed(kStateToken, in.states, S, layout.embed_w, layout.embed_b);
  embed(kActionToken, in.actions, A, layout.action_embed_w, layout.action_embed_b);
  layernorm_forward(s.input(), s.embed_mean.data(), s.embed_rstd.data(), s.embedded.data(), p + layout.embed_ln_w,
                    p + layout.embed_ln_b, 3 * n, D);
  backbone_forward<T>(s, p, layout, c.backbone, 3 * n);

  const T* h = s.hidden(c.backbone.layers);
  for (int i = 0; i < n; ++i)
    std::copy(h + (3L * i + kStateToken) * D, h + (3L * i + kStateToken + 1) * D, s.state_hidden.data() + long(i) * D);
  layernorm_forward(s.lnf.data(), s.lnf_mean.data(), s.lnf_rstd.data(), s.state_hidden.data(), p + layout.lnf_w,
                    p + layout.lnf_b, n, D);
  linear_forward(s.predicted.data(), s.lnf.data(), p + layout.head_w, p + layout.head_b, n, D, A);
  for (long v = 0; v < long(n) * A; ++v) s.predicted[sz(v)] = std::tanh(s.predicted[sz(v)]);
}

template <class T>
T decision_squared_error(T* dpredicted, const DecisionState<T>& s, const DecisionConfig& c, const T* actions,
                         T weight) {
  T sum = 0;
  for (long v = 0; v < long(s.n) * c.action_dim; ++v) {
    const T error = s.predicted[sz(v)] - actions[v];
    sum += error * error;
    if (dpredicted) dpredicted[v] = weight * T(2) * error;
  }
  return sum;
}

template <class T>
void decision_backward(T* g, DecisionScratch<T>& k, const DecisionState<T>& s, const T* p,
                       const ParameterLayout& layout, const DecisionConfig& c, const DecisionInputs<T>& in) {
  const int n = s.n, D = c.backbone.d_model, S = c.state_dim, A = c.action_dim;
  // Through the tanh: d(pre) = d(â) (1 - â^2), kept in dpredicted.
  for (long v = 0; v < long(n) * A; ++v) k.dpredicted[sz(v)] *= T(1) - s.predicted[sz(v)] * s.predicted[sz(v)];
  linear_backward(k.dlnf.data(), g + layout.head_w, g + layout.head_b, k.dpredicted.data(), s.lnf.data(),
                  p + layout.head_w, n, D, A);
  layernorm_backward(k.dstate_hidden.data(), g + layout.lnf_w, g + layout.lnf_b, k.dlnf.data(), s.state_hidden.data(),
                     p + layout.lnf_w, s.lnf_mean.data(), s.lnf_rstd.data(), n, D);
  // Only the state tokens are read by the head.
  T* dh = k.dh.data();
  std::fill(dh, dh + sz(3L * n * D), T(0));
  for (int i = 0; i < n; ++i)
    std::copy(k.dstate_hidden.data() + long(i) * D, k.dstate_hidden.data() + long(i + 1) * D,
              dh + (3L * i + kStateToken) * D);
  backbone_backward<T>(g, k, s, p, layout, c.backbone, 3 * n);
  layernorm_backward(k.dembedded.data(), g + layout.embed_ln_w, g + layout.embed_ln_b, dh, s.embedded.data(),
                     p + layout.embed_ln_w, s.embed_mean.data(), s.embed_rstd.data(), 3 * n, D);

  const auto unembed = [&](int kind, const T* x, int width, std::size_t w, std::size_t b) {
    for (int i = 0; i < n; ++i) {
      const T* dtoken = k.dembedded.data() + (3L * i + kind) * D;
      std::copy(dtoken, dtoken + D, k.dby_kind.data() + long(i) * D);
      T* de = g + layout.timestep_embed + long(s.rows[sz(i)]) * D;
      for (int j = 0; j < D; ++j) de[j] += dtoken[j];
    }
    linear_backward<T>(nullptr, g + w, g + b, k.dby_kind.data(), x, p + w, n, width, D);
  };
  unembed(kReturnToken, in.returns_to_go, 1, layout.return_embed_w, layout.return_embed_b);
  unembed(kStateToken, in.states, S, layout.embed_w, layout.embed_b);
  unembed(kActionToken, in.actions, A, layout.action_embed_w, layout.action_embed_b);
}

#define AAREN_INSTANTIATE(T)                                                                                     \
  template struct DecisionState<T>;                                                                              \
  template struct DecisionScratch<T>;                                                                            \
  template void decision_forward<T>(DecisionState<T>&, const T*, const ParameterLayout&, const DecisionConfig&,  \
                                    const DecisionInputs<T>&, int);                                              \
  template T decision_squared_error<T>(T*, const DecisionState<T>&, const DecisionConfig&, const T*, T);         \
  template void decision_backward<T>(T*, DecisionScratch<T>&, const DecisionState<T>&, const T*,                 \
                                     const ParameterLayout&, const DecisionConfig&, const DecisionInputs<T>&);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren::rl
