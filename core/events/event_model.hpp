#pragma once
// The event model: a temporal point process over one window of events, with the forecasting
// model's blocks (Aaren or Transformer mixer) as its backbone.
//
// Input: n <= capacity (config.backbone.seq_len) events with times t_0 <= ... <= t_{n-1}, the
// window's origin (the time of the event before t_0, so the first gap tau_0 = t_0 - origin is
// real), marks k_i in 0..M-1 (M = config.marks; 0: unmarked) and optionally one numeric feature
// f_i per event, standardized by the caller. The time scale s = config.time_scale (the training
// data's mean gap) makes gaps unitless: the model works with tau / s.
//   features   x_i (C_in): log(tau_i / s + 1e-6), sin/cos of (t_i - origin) / s at F frequencies
//              with periods 1, 2, 4, ..., 2^(F-1), and f_i (core/events/event_features.hpp)
//   embedding  e_i = W_in x_i + b_in + E[k_i] + PE[i]     (E: (M, D) mark table when M > 0; PE: the
//              forecasting model's sinusoidal positional encoding of the index)
//   backbone   the L pre-LN blocks of core/model/backbone.hpp
//   heads      final LayerNorm at every position, then from h_i, for event i + 1:
//              time head Linear D -> 3K: a K-component log-normal mixture of tau_{i+1} / s;
//              mark head Linear D -> M: softmax (M > 0)    (core/events/event_heads.hpp)
// Loss of a window = mean over i = 0..n-2 of -log p(tau_{i+1} / s) - log P(k_{i+1}): the density of
// the gap in units of s (time_nll_in_data_units converts it to the data's time unit). A zero gap
// is scored as a gap of 1e-6 s, so every loss is finite. The last position's distribution is the
// prediction of the event after the window.
//
// Forward and backward by hand: event_forward -> event_loss (writes dL/d(head outputs)) ->
// event_backward (accumulates into a flat gradient buffer laid out by
// ParameterLayout::for_events). Every buffer is allocated once per capacity in EventForwardState /
// EventBackwardScratch. Initial parameters: init_parameters (core/model/parameter_init.hpp).
#include <cstddef>
#include <span>
#include <vector>

#include "core/events/event_model_config.hpp"
#include "core/model/backbone.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/util/aligned_vector.hpp"

namespace aaren {

struct EventWindow {
  double origin = 0;                  // the previous event's time (t_0 - origin is the first gap)
  std::span<const double> times;      // (n) non-decreasing, >= origin
  std::span<const int> marks;         // (n) in 0..M-1; empty when the model is unmarked
  std::span<const double> features;   // (n) standardized; empty when the model has no feature
};

// Throws std::invalid_argument saying which event or size does not fit the model.
void check_event_window(const EventWindow& window, const EventModelConfig& config);

// The backbone's buffers plus the event model's own, for windows of up to `capacity` events.
template <class T>
struct EventForwardState : BackboneState<T> {
  explicit EventForwardState(const EventModelConfig& config);
  int n = 0;                                 // events in the window of the last forward
  AlignedVector<T> pe;                       // (capacity, D) positional encoding, computed once
  AlignedVector<T> x;                        // (capacity, C_in) features
  std::vector<int> marks;                    // (capacity) k_i (0 when unmarked)
  std::vector<double> gaps;                  // (capacity) tau_i in the data's time unit
  AlignedVector<T> log_gap;                  // (capacity) log(max(tau_i / s, 1e-6)): the targets
  AlignedVector<T> lnf, lnf_mean, lnf_rstd;  // (capacity, D), (capacity), (capacity)
  AlignedVector<T> time_out;                 // (capacity, 3K) time head rows [logits | mu | raw log-scale]
  AlignedVector<T> mark_out;                 // (capacity, M) mark logits
  AlignedVector<T> weights, mu, sigma;       // (capacity, K) row i: the mixture for tau_{i+1} / s
  AlignedVector<T> mark_probs;               // (capacity, M) row i: P(k_{i+1})
};

template <class T>
struct EventBackwardScratch : BackboneScratch<T> {
  explicit EventBackwardScratch(const EventModelConfig& config);
  AlignedVector<T> dtime, dmark;     // (capacity, 3K), (capacity, M): for event_loss to write
  AlignedVector<T> dlnf, dlnf_mark;  // (capacity, D)
};

// Sums over a window's predictions (events 1..n-1), for metrics pooled over many windows.
struct EventMetrics {
  double loss = 0;           // mean of time NLL + mark NLL over the predictions: what the gradient is of
  double time_nll = 0;       // sum of -log p(tau / s) (gaps in units of s)
  double mark_nll = 0;       // sum of -log P(k)
  double squared_error = 0;  // sum of (predicted next time - actual)^2, data time units squared; the
                             // prediction is t_i + s E[tau / s]
  long correct_marks = 0;    // argmax P(k) == k
  long predictions = 0;      // n - 1
};

template <class T>
void event_forward(EventForwardState<T>& state, const T* params, const ParameterLayout& layout,
                   const EventModelConfig& config, const EventWindow& window);

// The loss and metrics of the window in `state`. With dtime and dmark (e.g. scratch.dtime and
// scratch.dmark; dmark may be nullptr when M = 0) writes d(weight * loss)/d(head outputs) for
// rows 0..n-1; weight is e.g. 1 / batch size.
template <class T>
EventMetrics event_loss(T* dtime /*(n, 3K) or nullptr*/, T* dmark /*(n, M) or nullptr*/,
                        const EventForwardState<T>& state, const EventModelConfig& config, T weight = T(1));

// Accumulates dL/dparams into grads, given dL/d(head outputs) and the forward's state.
template <class T>
void event_backward(T* grads, EventBackwardScratch<T>& scratch, const EventForwardState<T>& state, const T* params,
                    const ParameterLayout& layout, const EventModelConfig& config, const T* dtime /*(n, 3K)*/,
                    const T* dmark /*(n, M) or nullptr*/);

// A time NLL summed over `predictions` gaps in units of s, as the density per data time unit:
// -log p(tau) = -log p(tau / s) + log s per gap.
double time_nll_in_data_units(double scaled_time_nll, long predictions, double time_scale);

}  // namespace aaren
