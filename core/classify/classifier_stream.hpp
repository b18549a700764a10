#pragma once
// The classifier (core/classify/classifier_model.hpp) run one time step at a time, giving the class
// probabilities after every step: what the parallel forward gives on the series' prefix so far.
//   Without instance norm the blocks run in a BackboneStream, a true RNN: Aaren keeps its (m, u, w)
//   summary (d_model + 2 H numbers per layer, however many steps), the Transformer its KV cache
//   (2 d_model numbers per layer per step). The head keeps the running sum of the last block's
//   hidden states (mean pooling) or reads the last one (last pooling), then ln_f and the head.
//   With instance norm every new step changes the prefix's mean and sigma, and with them the
//   normalized value of every earlier step, so no summary of the earlier steps stays valid: the
//   stream keeps the raw prefix and runs the parallel forward on it at each step (O(t) work per
//   step, at most seq_len steps).
#include <cstddef>
#include <memory>
#include <vector>

#include "core/classify/classifier_config.hpp"
#include "core/classify/classifier_model.hpp"
#include "core/model/backbone_stream.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

template <class T>
class ClassifierStream {
 public:
  // `layout` (ParameterLayout::for_classifier(config)) and `params` must outlive the stream. An
  // ensemble's stream runs one member: `params` points at that member's parameters.
  // `reserve_steps` pre-sizes the Transformer's KV cache so steps up to that many never allocate.
  ClassifierStream(const ClassifierConfig& config, const ParameterLayout& layout, const T* params,
                   long reserve_steps = 0);

  // Starts a new series.
  void reset();

  // Folds in one time step x_t (C values, NaN where missing) and returns the class probabilities
  // (K) after it, valid until the next call. With instance norm throws std::invalid_argument past
  // seq_len steps.
  const T* step(const T* x_t /*(C)*/);

  long steps() const { return t_; }
  const T* probabilities() const { return probs_.data(); }  // (K); zeros before the first step
  const T* logits() const { return logits_.data(); }        // (K)

  // Bytes of the state that grows with the stream: Aaren's (m, u, w) or the KV cache in use,
  // plus the running sum; with instance norm the raw prefix kept.
  std::size_t state_bytes() const;

 private:
  void step_recurrent(const T* x_t);
  void step_on_prefix(const T* x_t);

  ClassifierConfig config_;
  const ParameterLayout& layout_;
  const T* p_;
  BackboneStream<T> backbone_;
  std::unique_ptr<ClassifierState<T>> prefix_state_;  // instance norm only
  std::vector<T> prefix_;                             // instance norm only: (seq_len, C) raw steps
  long t_ = 0;
  std::vector<T> xn_, in_stat_, embedded_, hidden_sum_, pooled_, lnf_, lnf_stat_, logits_, probs_;
};

// The class probabilities after each step of a series x (n, C): (n, K) row-major, row t from
// rows 0..t of x, by a ClassifierStream (for an ensemble, the mean of a stream per member).
template <class T>
std::vector<T> running_probabilities(const ClassifierConfig& config, const ParameterLayout& layout, const T* params,
                                     const T* x /*(n, C)*/, int n);

}  // namespace aaren
