#include "core/forecast/forecast_task.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/util/step_profile.hpp"

namespace aaren {

ForecastErrorSums::ForecastErrorSums(int channels)
    : channels_(channels), channel_squared_(std::size_t(channels)), channel_absolute_(std::size_t(channels)) {
  if (channels < 1) throw std::invalid_argument("forecast errors need at least one channel");
}

// Each window's totals are summed first and then added, so that the overall sums are the same
// numbers, in the same order, as the training loss's.
void ForecastErrorSums::add(const float* forecast, const float* truth, int horizon) {
  double squared = 0, absolute = 0;
  for (int h = 0; h < horizon; ++h)
    for (int c = 0; c < channels_; ++c) {
      const std::size_t j = std::size_t(h) * std::size_t(channels_) + std::size_t(c);
      const double diff = double(forecast[j]) - double(truth[j]);
      squared += diff * diff;
      absolute += std::abs(diff);
      channel_squared_[std::size_t(c)] += diff * diff;
      channel_absolute_[std::size_t(c)] += std::abs(diff);
    }
  squared_ += squared;
  absolute_ += absolute;
  values_ += double(horizon) * double(channels_);
}

void ForecastErrorSums::clear() {
  squared_ = absolute_ = values_ = 0;
  std::fill(channel_squared_.begin(), channel_squared_.end(), 0.0);
  std::fill(channel_absolute_.begin(), channel_absolute_.end(), 0.0);
}

std::size_t ForecastErrorSums::flat_size() const { return 3 + 2 * std::size_t(channels_); }

void ForecastErrorSums::add_to_flat(double* sums) const {
  sums[0] += squared_;
  sums[1] += absolute_;
  sums[2] += values_;
  for (std::size_t c = 0; c < std::size_t(channels_); ++c) {
    sums[3 + c] += channel_squared_[c];
    sums[3 + std::size_t(channels_) + c] += channel_absolute_[c];
  }
}

EvalMetrics ForecastErrorSums::metrics_from_flat(const double* sums, int channels, long windows) {
  EvalMetrics metrics;
  metrics.windows = windows;
  metrics.channel_mse.assign(std::size_t(channels), 0.0);
  metrics.channel_mae.assign(std::size_t(channels), 0.0);
  if (!(sums[2] > 0)) return metrics;
  metrics.mse = sums[0] / sums[2];
  metrics.mae = sums[1] / sums[2];
  const double per_channel = sums[2] / double(channels);
  for (std::size_t c = 0; c < std::size_t(channels); ++c) {
    metrics.channel_mse[c] = sums[3 + c] / per_channel;
    metrics.channel_mae[c] = sums[3 + std::size_t(channels) + c] / per_channel;
  }
  return metrics;
}

EvalMetrics ForecastErrorSums::metrics(long windows) const {
  std::vector<double> flat(flat_size());
  add_to_flat(flat.data());
  return metrics_from_flat(flat.data(), channels_, windows);
}

// Sums of squares are taken in double from double differences per window by one function
// (ForecastErrorSums::add), and the MSE and MAE are formed from the same per-window sums, so the
// validation loss and the reported validation MSE are the same number.
class ForecastTask::Worker : public TaskWorker {
 public:
  explicit Worker(const ForecastTask& task)
      : task_(task), values_(task.config_.horizon * task.config_.outputs()), state_(task.config_),
        scratch_(task.config_), x_(std::size_t(task.config_.seq_len) * std::size_t(task.config_.channels)),
        truth_(std::size_t(values_)), dy_(std::size_t(values_)), window_errors_(task.config_.outputs()) {}

  LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
    forecast(i, params);
    // The same accumulation as the metrics', so that the loss and the reported MSE are one number.
    window_errors_.clear();
    window_errors_.add(state_.y.data(), truth_.data(), task_.config_.horizon);
    const double squared = window_errors_.squared_sum();
    if (grads) {
      mse_loss(dy_.data(), state_.y.data(), truth_.data(), values_);  // for its dL/dy
      for (float& d : dy_) d *= grad_weight;
      forecast_backward(grads, scratch_, state_, params, task_.layout_, task_.config_, dy_.data());
    }
    return {squared, long(values_)};
  }

  void add_metrics(long i, const float* params, double* sums) override {
    forecast(i, params);
    window_errors_.clear();
    window_errors_.add(state_.y.data(), truth_.data(), task_.config_.horizon);
    window_errors_.add_to_flat(sums);
  }

 private:
  void forecast(long i, const float* params) {
    {
      const profile::Scope scope(profile::Part::copies);
      task_.windows_.copy(i, x_.data(), truth_.data());
    }
    forecast_forward(state_, params, task_.layout_, task_.config_, x_.data());
  }

  const ForecastTask& task_;
  int values_;
  ForwardState<float> state_;
  BackwardScratch<float> scratch_;
  AlignedVector<float> x_, truth_, dy_;  // (seq_len, C), (horizon, K), (horizon, K)
  ForecastErrorSums window_errors_;
};

ForecastTask::ForecastTask(const ModelConfig& config, const WindowSet& windows)
    : WindowedTask(config, ParameterLayout(config), windows) {}

std::unique_ptr<TaskWorker> ForecastTask::make_worker() const { return std::make_unique<Worker>(*this); }

std::vector<std::string> ForecastTask::metric_names() const {
  std::vector<std::string> names = {"squared_error", "absolute_error", "values"};
  for (const char* kind : {"squared_error", "absolute_error"})
    for (int c = 0; c < config_.outputs(); ++c) names.push_back(std::string(kind) + "[" + std::to_string(c) + "]");
  return names;
}

EvalMetrics forecast_metrics(Trainer& trainer, const ForecastTask& task) {
  const int outputs = task.config().outputs();
  if (task.size() == 0) {
    const std::vector<double> none(ForecastErrorSums(outputs).flat_size(), 0.0);
    return ForecastErrorSums::metrics_from_flat(none.data(), outputs, 0);
  }
  const std::vector<double> sums = trainer.metric_sums(task);
  return ForecastErrorSums::metrics_from_flat(sums.data(), outputs, task.size());
}

}  // namespace aaren
