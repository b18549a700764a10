#include "core/model/forecast_stream.hpp"

#include "core/nn/instance_norm.hpp"
#include "core/nn/linear.hpp"

namespace aaren {

template <class T>
ForecastStream<T>::ForecastStream(const ModelConfig& config, const ParameterLayout& layout, const T* params,
                                  long reserve_tokens)
    : config_(config), layout_(layout), p_(params), backbone_(config, layout, params, reserve_tokens) {
  const std::size_t d = std::size_t(config.d_model);
  embedded_.assign(d, T(0));
  row_.assign(std::size_t(config.channels), T(0));
  head_.assign(std::size_t(config.horizon) * std::size_t(config.outputs()), T(0));
  reset();
}

template <class T>
void ForecastStream<T>::reset(const T* mean, const T* sigma) {
  const std::size_t c = std::size_t(config_.channels);
  mean_.assign(c, T(0));
  sigma_.assign(c, T(1));
  if (mean) mean_.assign(mean, mean + c);
  if (sigma) sigma_.assign(sigma, sigma + c);
  backbone_.reset();
}

template <class T>
const T* ForecastStream<T>::step(const T* x) {
  const int C = config_.channels, D = config_.d_model;
  for (int c = 0; c < C; ++c) row_[std::size_t(c)] = (x[c] - mean_[std::size_t(c)]) / sigma_[std::size_t(c)];
  linear_forward(embedded_.data(), row_.data(), p_ + layout_.embed_w, p_ + layout_.embed_b, 1, C, D);
  return backbone_.step_at_next_position(embedded_.data());
}

template <class T>
void ForecastStream<T>::forecast(T* y) {
  const int D = config_.d_model, K = config_.outputs();
  const std::size_t first = std::size_t(config_.first_output_channel());
  linear_forward(head_.data(), backbone_.normalized_hidden(), p_ + layout_.head_w, p_ + layout_.head_b, 1, D,
                 config_.horizon * K);
  instance_denorm_forward(y, head_.data(), mean_.data() + first, sigma_.data() + first, config_.horizon, K);
}

template class ForecastStream<float>;
template class ForecastStream<double>;

}  // namespace aaren
