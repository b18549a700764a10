#include "core/events/event_model.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/events/event_features.hpp"
#include "core/events/event_heads.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/nn/positional_encoding.hpp"

namespace aaren {

namespace {

std::size_t sz(long n) { return std::size_t(n); }

[[noreturn]] void reject(const std::string& message) { throw std::invalid_argument(message); }

std::string event_label(std::size_t i) { return "event " + std::to_string(i); }

// Validates before the backbone's buffers are sized from the config.
const EventModelConfig& validated(const EventModelConfig& config) {
  config.validate();
  return config;
}

// Enough digits to tell two nearby large times apart (1700000123.5 vs 1700000124).
std::string number(double value) {
  std::ostringstream text;
  text << std::setprecision(15) << value;
  return text.str();
}

}  // namespace

void check_event_window(const EventWindow& w, const EventModelConfig& config) {
  const std::size_t n = w.times.size(), capacity = sz(config.backbone.seq_len);
  if (n == 0) reject("the window has no events; give 1 to " + std::to_string(capacity));
  if (n > capacity)
    reject("the window has " + std::to_string(n) + " events but the model holds at most " +
           std::to_string(capacity) + " (its seq_len)");
  if (config.marks > 0 && w.marks.size() != n)
    reject("the model predicts " + std::to_string(config.marks) + " mark types but the window gives " +
           std::to_string(w.marks.size()) + " marks for " + std::to_string(n) + " events");
  if (config.marks == 0 && !w.marks.empty())
    reject("the model is unmarked (marks 0) but the window gives " + std::to_string(w.marks.size()) + " marks");
  if (config.feature && w.features.size() != n)
    reject("the model reads one feature per event but the window gives " + std::to_string(w.features.size()) +
           " for " + std::to_string(n) + " events");
  if (!config.feature && !w.features.empty())
    reject("the model reads no feature but the window gives " + std::to_string(w.features.size()));
  if (!std::isfinite(w.origin)) reject("the window's origin is not a finite number");
  double previous = w.origin;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = w.times[i];
    if (!std::isfinite(t)) reject(event_label(i) + ": its time is not a finite number");
    if (t < previous)
      reject(event_label(i) + ": time " + number(t) + " is earlier than " +
             (i == 0 ? "the window's origin " : "the previous event's ") + number(previous));
    previous = t;
    if (config.marks > 0 && (w.marks[i] < 0 || w.marks[i] >= config.marks))
      reject(event_label(i) + ": mark " + std::to_string(w.marks[i]) + " is not one of the model's " +
             std::to_string(config.marks) + " mark types (0 to " + std::to_string(config.marks - 1) + ")");
    if (config.feature && !std::isfinite(w.features[i]))
      reject(event_label(i) + ": its feature is not a finite number");
  }
}

template <class T>
EventForwardState<T>::EventForwardState(const EventModelConfig& c) : BackboneState<T>(validated(c).backbone) {
  const long l = c.backbone.seq_len, d = c.backbone.d_model, k = c.mixture_components, m = c.marks;
  pe.assign(sz(l * d), T(0));
  positional_encoding(pe.data(), c.backbone.seq_len, c.backbone.d_model);
  x.assign(sz(l * c.input_features()), T(0));
  marks.assign(sz(l), 0);
  gaps.assign(sz(l), 0.0);
  log_gap.assign(sz(l), T(0));
  lnf.assign(sz(l * d), T(0));
  lnf_mean.assign(sz(l), T(0));
  lnf_rstd.assign(sz(l), T(0));
  time_out.assign(sz(l * 3 * k), T(0));
  mark_out.assign(sz(l * m), T(0));
  weights.assign(sz(l * k), T(0));
  mu.assign(sz(l * k), T(0));
  sigma.assign(sz(l * k), T(0));
  mark_probs.assign(sz(l * m), T(0));
}

template <class T>
EventBackwardScratch<T>::EventBackwardScratch(const EventModelConfig& c)
    : BackboneScratch<T>(validated(c).backbone) {
  const long l = c.backbone.seq_len, d = c.backbone.d_model;
  dtime.assign(sz(l * 3 * c.mixture_components), T(0));
  dmark.assign(sz(l * c.marks), T(0));
  dlnf.assign(sz(l * d), T(0));
  dlnf_mark.assign(sz(l * d), T(0));
}

template <class T>
void event_forward(EventForwardState<T>& s, const T* p, const ParameterLayout& layout, const EventModelConfig& c,
                   const EventWindow& w) {
  check_event_window(w, c);
  const int n = int(w.times.size()), D = c.backbone.d_model, K = c.mixture_components, M = c.marks;
  const int inputs = c.input_features();
  s.n = n;
  double previous = w.origin;
  for (int i = 0; i < n; ++i) {
    const double t = w.times[sz(i)];
    const double gap = t - previous;
    previous = t;
    s.gaps[sz(i)] = gap;
    s.log_gap[sz(i)] = T(scaled_log_gap(gap, c.time_scale));
    s.marks[sz(i)] = M > 0 ? w.marks[sz(i)] : 0;
    event_features(s.x.data() + sz(long(i) * inputs), gap, t - w.origin, c.feature ? w.features[sz(i)] : 0.0, c);
  }

  T* h0 = s.input();
  linear_forward(h0, s.x.data(), p + layout.embed_w, p + layout.embed_b, n, inputs, D);
  for (int i = 0; i < n; ++i) {
    T* row = h0 + sz(long(i) * D);
    const T* pe = s.pe.data() + sz(long(i) * D);
    if (M > 0) {
      const T* mark = p + layout.mark_embed + sz(long(s.marks[sz(i)]) * D);
      for (int j = 0; j < D; ++j) row[j] += mark[j];
    }
    for (int j = 0; j < D; ++j) row[j] += pe[j];
  }
  backbone_forward<T>(s, p, layout, c.backbone, n);

  layernorm_forward(s.lnf.data(), s.lnf_mean.data(), s.lnf_rstd.data(), s.hidden(c.backbone.layers),
                    p + layout.lnf_w, p + layout.lnf_b, n, D);
  linear_forward(s.time_out.data(), s.lnf.data(), p + layout.time_head_w, p + layout.time_head_b, n, D, 3 * K);
  if (M > 0)
    linear_forward(s.mark_out.data(), s.lnf.data(), p + layout.mark_head_w, p + layout.mark_head_b, n, D, M);
  for (int i = 0; i < n; ++i) {
    const std::size_t row = sz(long(i) * K);
    mixture_from_raw(s.weights.data() + row, s.mu.data() + row, s.sigma.data() + row,
                     s.time_out.data() + sz(long(i) * 3 * K), K);
    if (M > 0) mark_probabilities(s.mark_probs.data() + sz(long(i) * M), s.mark_out.data() + sz(long(i) * M), M);
  }
}

template <class T>
EventMetrics event_loss(T* dtime, T* dmark, const EventForwardState<T>& s, const EventModelConfig& c, T weight) {
  const int n = s.n, K = c.mixture_components, M = c.marks;
  EventMetrics metrics;
  metrics.predictions = n - 1;
  if (dtime) std::fill(dtime, dtime + sz(long(n) * 3 * K), T(0));
  if (dmark && M > 0) std::fill(dmark, dmark + sz(long(n) * M), T(0));
  if (metrics.predictions <= 0) return metrics;
  const T per_prediction = weight / T(metrics.predictions);
  // Position i predicts event i + 1.
  for (int i = 0; i + 1 < n; ++i) {
    const std::size_t target = sz(i + 1);
    const T* raw = s.time_out.data() + sz(long(i) * 3 * K);
    metrics.time_nll += double(mixture_nll(dtime ? dtime + sz(long(i) * 3 * K) : nullptr, raw, s.log_gap[target], K,
                                           per_prediction));
    const std::size_t row = sz(long(i) * K);
    const double predicted_gap =
        c.time_scale * mixture_mean(s.weights.data() + row, s.mu.data() + row, s.sigma.data() + row, K);
    const double error = predicted_gap - s.gaps[target];
    metrics.squared_error += error * error;
    if (M > 0) {
      const T* logits = s.mark_out.data() + sz(long(i) * M);
      metrics.mark_nll +=
          double(mark_nll(dmark ? dmark + sz(long(i) * M) : nullptr, logits, s.marks[target], M, per_prediction));
      const T* probs = s.mark_probs.data() + sz(long(i) * M);
      if (std::max_element(probs, probs + M) - probs == s.marks[target]) ++metrics.correct_marks;
    }
  }
  metrics.loss = (metrics.time_nll + metrics.mark_nll) / double(metrics.predictions);
  return metrics;
}

template <class T>
void event_backward(T* g, EventBackwardScratch<T>& k, const EventForwardState<T>& s, const T* p,
                    const ParameterLayout& layout, const EventModelConfig& c, const T* dtime, const T* dmark) {
  const int n = s.n, D = c.backbone.d_model, K = c.mixture_components, M = c.marks;
  const std::size_t nd = sz(long(n) * D);
  linear_backward(k.dlnf.data(), g + layout.time_head_w, g + layout.time_head_b, dtime, s.lnf.data(),
                  p + layout.time_head_w, n, D, 3 * K);
  if (M > 0) {
    linear_backward(k.dlnf_mark.data(), g + layout.mark_head_w, g + layout.mark_head_b, dmark, s.lnf.data(),
                    p + layout.mark_head_w, n, D, M);
    for (std::size_t i = 0; i < nd; ++i) k.dlnf[i] += k.dlnf_mark[i];
  }
  layernorm_backward(k.dh.data(), g + layout.lnf_w, g + layout.lnf_b, k.dlnf.data(), s.hidden(c.backbone.layers),
                     p + layout.lnf_w, s.lnf_mean.data(), s.lnf_rstd.data(), n, D);
  backbone_backward<T>(g, k, s, p, layout, c.backbone, n);
  // The features are data: only the embedding's weights (and the mark table's rows) need a gradient.
  linear_backward<T>(nullptr, g + layout.embed_w, g + layout.embed_b, k.dh.data(), s.x.data(), p + layout.embed_w,
                     n, c.input_features(), D);
  if (M > 0) {
    for (int i = 0; i < n; ++i) {
      T* mark = g + layout.mark_embed + sz(long(s.marks[sz(i)]) * D);
      const T* dh = k.dh.data() + sz(long(i) * D);
      for (int j = 0; j < D; ++j) mark[j] += dh[j];
    }
  }
}

double time_nll_in_data_units(double scaled_time_nll, long predictions, double time_scale) {
  return scaled_time_nll + double(predictions) * std::log(time_scale);
}

#define AAREN_INSTANTIATE(T)                                                                                   \
  template struct EventForwardState<T>;                                                                        \
  template struct EventBackwardScratch<T>;                                                                     \
  template void event_forward<T>(EventForwardState<T>&, const T*, const ParameterLayout&, const EventModelConfig&, \
                                 const EventWindow&);                                                          \
  template EventMetrics event_loss<T>(T*, T*, const EventForwardState<T>&, const EventModelConfig&, T);         \
  template void event_backward<T>(T*, EventBackwardScratch<T>&, const EventForwardState<T>&, const T*,         \
                                  const ParameterLayout&, const EventModelConfig&, const T*, const T*);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
