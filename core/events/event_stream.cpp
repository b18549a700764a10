#include "core/events/event_stream.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/events/event_features.hpp"
#include "core/events/event_heads.hpp"
#include "core/nn/linear.hpp"

namespace aaren {

namespace {

const EventModelConfig& validated(const EventModelConfig& config) {
  config.validate();
  return config;
}

}  // namespace

template <class T>
EventStream<T>::EventStream(const EventModelConfig& config, const ParameterLayout& layout, const T* params,
                            long reserve_events)
    : config_(validated(config)), layout_(layout), p_(params),
      backbone_(config.backbone, layout, params, reserve_events) {
  const std::size_t d = std::size_t(config.backbone.d_model), k = std::size_t(config.mixture_components);
  const std::size_t m = std::size_t(config.marks);
  x_.assign(std::size_t(config.input_features()), T(0));
  embedded_.assign(d, T(0));
  time_out_.assign(3 * k, T(0));
  mark_out_.assign(m, T(0));
  reset(0);
}

template <class T>
void EventStream<T>::reset(double origin) {
  if (!std::isfinite(origin)) throw std::invalid_argument("the stream's origin is not a finite number");
  origin_ = origin;
  last_time_ = origin;
  backbone_.reset();
  const std::size_t k = std::size_t(config_.mixture_components);
  weights_.assign(k, T(0));
  mu_.assign(k, T(0));
  sigma_.assign(k, T(0));
  mark_probs_.assign(std::size_t(config_.marks), T(0));
}

template <class T>
const T* EventStream<T>::step(double time, int mark, double feature) {
  const int D = config_.backbone.d_model, K = config_.mixture_components, M = config_.marks;
  if (!std::isfinite(time)) throw std::invalid_argument("the event's time is not a finite number");
  if (time < last_time_) {
    std::ostringstream message;
    message << std::setprecision(15) << "time " << time << " is earlier than the "
            << (events() == 0 ? "origin " : "previous event's ") << last_time_;
    throw std::invalid_argument(message.str());
  }
  if (mark < 0 || mark >= std::max(M, 1))
    throw std::invalid_argument("mark " + std::to_string(mark) + " is not one of the model's " +
                                (M > 0 ? std::to_string(M) + " mark types (0 to " + std::to_string(M - 1) + ")"
                                       : std::string("marks: it is unmarked, give 0")));
  if (config_.feature && !std::isfinite(feature))
    throw std::invalid_argument("the event's feature is not a finite number");

  event_features(x_.data(), time - last_time_, time - origin_, feature, config_);
  last_time_ = time;
  linear_forward(embedded_.data(), x_.data(), p_ + layout_.embed_w, p_ + layout_.embed_b, 1, config_.input_features(),
                 D);
  if (M > 0) {
    const T* row = p_ + layout_.mark_embed + std::size_t(mark) * std::size_t(D);
    for (int j = 0; j < D; ++j) embedded_[std::size_t(j)] += row[j];
  }
  const T* h = backbone_.step_at_next_position(embedded_.data());

  const T* ln = backbone_.normalized_hidden();
  linear_forward(time_out_.data(), ln, p_ + layout_.time_head_w, p_ + layout_.time_head_b, 1, D, 3 * K);
  mixture_from_raw(weights_.data(), mu_.data(), sigma_.data(), time_out_.data(), K);
  if (M > 0) {
    linear_forward(mark_out_.data(), ln, p_ + layout_.mark_head_w, p_ + layout_.mark_head_b, 1, D, M);
    aaren::mark_probabilities(mark_probs_.data(), mark_out_.data(), M);
  }
  return h;
}

template <class T>
double EventStream<T>::density(double gap) const {
  if (events() == 0 || !(gap > 0)) return 0;
  const double s = config_.time_scale;
  const T log_gap = T(std::log(gap / s));
  const double log_density =
      double(mixture_log_density(weights_.data(), mu_.data(), sigma_.data(), config_.mixture_components, log_gap));
  return std::exp(log_density) / gap;
}

template <class T>
double EventStream<T>::mean_gap() const {
  if (events() == 0) return 0;
  return config_.time_scale * mixture_mean(weights_.data(), mu_.data(), sigma_.data(), config_.mixture_components);
}

template class EventStream<float>;
template class EventStream<double>;

}  // namespace aaren
