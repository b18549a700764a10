#include "core/classify/classifier_stream.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"

namespace aaren {

namespace {

const ClassifierConfig& validated(const ClassifierConfig& config) {
  config.validate();
  return config;
}

}  // namespace

template <class T>
ClassifierStream<T>::ClassifierStream(const ClassifierConfig& config, const ParameterLayout& layout, const T* params,
                                      long reserve_steps)
    : config_(validated(config)), layout_(layout), p_(params),
      backbone_(config.backbone, layout, params, config.instance_norm ? 0 : reserve_steps) {
  const std::size_t c = std::size_t(config.backbone.channels), d = std::size_t(config.backbone.d_model);
  if (config.instance_norm) {
    prefix_state_ = std::make_unique<ClassifierState<T>>(config);
    prefix_.assign(std::size_t(config.backbone.seq_len) * c, T(0));
  }
  xn_.assign(c, T(0));
  in_stat_.assign(2 * c, T(0));
  embedded_.assign(d, T(0));
  hidden_sum_.assign(d, T(0));
  pooled_.assign(d, T(0));
  lnf_.assign(d, T(0));
  lnf_stat_.assign(2, T(0));
  reset();
}

template <class T>
void ClassifierStream<T>::reset() {
  backbone_.reset();
  t_ = 0;
  std::fill(hidden_sum_.begin(), hidden_sum_.end(), T(0));
  logits_.assign(std::size_t(config_.classes), T(0));
  probs_.assign(std::size_t(config_.classes), T(0));
}

template <class T>
const T* ClassifierStream<T>::step(const T* x_t) {
  if (config_.instance_norm)
    step_on_prefix(x_t);
  else
    step_recurrent(x_t);
  return probs_.data();
}

template <class T>
void ClassifierStream<T>::step_recurrent(const T* x_t) {
  const int C = config_.backbone.channels, D = config_.backbone.d_model;
  classifier_normalize_input(xn_.data(), in_stat_.data(), in_stat_.data() + C, x_t, 1, C, false);
  linear_forward(embedded_.data(), xn_.data(), p_ + layout_.embed_w, p_ + layout_.embed_b, 1, C, D);
  const T* h = backbone_.step_at_next_position(embedded_.data());
  ++t_;
  if (config_.pooling == ClassifierPooling::mean) {
    // The parallel forward's order: the sum of the hidden states, then one division by the count.
    for (int j = 0; j < D; ++j) {
      hidden_sum_[std::size_t(j)] += h[j];
      pooled_[std::size_t(j)] = hidden_sum_[std::size_t(j)] / T(t_);
    }
  } else {
    std::copy(h, h + D, pooled_.begin());
  }
  layernorm_forward(lnf_.data(), &lnf_stat_[0], &lnf_stat_[1], pooled_.data(), p_ + layout_.lnf_w, p_ + layout_.lnf_b,
                    1, D);
  linear_forward(logits_.data(), lnf_.data(), p_ + layout_.head_w, p_ + layout_.head_b, 1, D, config_.classes);
  class_probabilities(probs_.data(), logits_.data(), config_.classes);
}

template <class T>
void ClassifierStream<T>::step_on_prefix(const T* x_t) {
  const long C = config_.backbone.channels, capacity = config_.backbone.seq_len;
  if (t_ >= capacity)
    throw std::invalid_argument("with instance norm the stream takes at most " + std::to_string(capacity) +
                                " steps (the model's seq_len)");
  std::copy(x_t, x_t + C, prefix_.begin() + t_ * C);
  ++t_;
  ClassifierState<T>& s = *prefix_state_;
  classifier_forward(s, p_, layout_, config_, prefix_.data(), int(t_));
  logits_.assign(s.logits.begin(), s.logits.end());
  probs_.assign(s.probs.begin(), s.probs.end());
}

template <class T>
std::size_t ClassifierStream<T>::state_bytes() const {
  if (config_.instance_norm) return std::size_t(t_) * std::size_t(config_.backbone.channels) * sizeof(T);
  return backbone_.state_bytes() + hidden_sum_.size() * sizeof(T);
}

template <class T>
std::vector<T> running_probabilities(const ClassifierConfig& config, const ParameterLayout& layout, const T* params,
                                     const T* x, int n) {
  const std::size_t C = std::size_t(config.backbone.channels), K = std::size_t(config.classes);
  std::vector<T> out(std::size_t(std::max(n, 0)) * K, T(0));
  const std::size_t member = config.member_parameters(layout.total());
  for (int m = 0; m < config.members; ++m) {
    ClassifierStream<T> stream(config, layout, params + std::size_t(m) * member, n);
    for (int t = 0; t < n; ++t) {
      const T* probs = stream.step(x + std::size_t(t) * C);
      for (std::size_t k = 0; k < K; ++k) out[std::size_t(t) * K + k] += probs[k] / T(config.members);
    }
  }
  return out;
}

template class ClassifierStream<float>;
template class ClassifierStream<double>;
template std::vector<float> running_probabilities<float>(const ClassifierConfig&, const ParameterLayout&, const float*,
                                                         const float*, int);
template std::vector<double> running_probabilities<double>(const ClassifierConfig&, const ParameterLayout&,
                                                           const double*, const double*, int);

}  // namespace aaren
