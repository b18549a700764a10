#pragma once
// The event model (core/events/event_model.hpp) run as an RNN: one event at a time. The blocks run
// in a BackboneStream: Aaren's (m, u, w) state stays d_model + 2 H numbers per layer however many
// events it has seen; the Transformer's KV cache grows by 2 d_model numbers per layer per event.
// After each step the stream holds the distribution of the next event, equal to the parallel
// forward's at the same position: the mixture of the next gap tau / s (weights, mu, sigma over
// log(tau / s)) and the mark probabilities.
#include <cstddef>
#include <vector>

#include "core/events/event_model_config.hpp"
#include "core/model/backbone_stream.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

template <class T>
class EventStream {
 public:
  // `layout` (ParameterLayout::for_events(config)) and `params` must outlive the stream.
  // `reserve_events` pre-sizes the Transformer's KV cache so steps up to that many never allocate.
  EventStream(const EventModelConfig& config, const ParameterLayout& layout, const T* params, long reserve_events = 0);

  // Starts a new sequence observed from `origin` (the time before its first event).
  void reset(double origin);

  // Folds in one event and returns the last block's hidden state (d_model). Throws
  // std::invalid_argument for a time before the previous event's, a mark outside 0..M-1 (give 0
  // when unmarked) or a non-finite feature (ignored when the model has none).
  const T* step(double time, int mark = 0, double feature = 0);

  long events() const { return backbone_.tokens(); }
  double last_time() const { return last_time_; }  // the origin before the first step
  const T* hidden() const { return backbone_.hidden(); }

  // The next event's distribution; zeros before the first step.
  const T* mixture_weights() const { return weights_.data(); }  // (K)
  const T* mixture_mu() const { return mu_.data(); }            // (K) means of log(tau / s)
  const T* mixture_sigma() const { return sigma_.data(); }      // (K) standard deviations of log(tau / s)
  const T* mark_probabilities() const { return mark_probs_.data(); }  // (M)

  // Density of the next gap per data time unit (0 for gap <= 0 and before the first step).
  double density(double gap) const;
  // Expected next gap in data time units, and the time of the next event (last_time() + mean_gap()).
  double mean_gap() const;
  double mean_next_time() const { return last_time_ + mean_gap(); }

  // Bytes of the state that grows with the stream: Aaren's (m, u, w), or the KV cache in use.
  std::size_t state_bytes() const { return backbone_.state_bytes(); }

 private:
  EventModelConfig config_;
  const ParameterLayout& layout_;
  const T* p_;
  BackboneStream<T> backbone_;
  double origin_ = 0, last_time_ = 0;
  std::vector<T> x_, embedded_, time_out_, mark_out_;
  std::vector<T> weights_, mu_, sigma_, mark_probs_;
};

}  // namespace aaren
