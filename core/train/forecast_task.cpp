#include "core/train/forecast_task.hpp"

#include <cmath>

namespace aaren {

// Sums of squares are taken in double from double differences per window, and the MSE and MAE are
// formed from the same per-window sums, so the validation loss and the reported validation MSE are
// the same number.
class ForecastTask::Worker : public TaskWorker {
 public:
  explicit Worker(const ForecastTask& task)
      : task_(task), values_(task.config_.horizon * task.config_.channels), state_(task.config_),
        scratch_(task.config_), x_(std::size_t(task.config_.seq_len) * std::size_t(task.config_.channels)),
        truth_(std::size_t(values_)), dy_(std::size_t(values_)) {}

  LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
    forecast(i, params);
    double squared = 0;
    for (int j = 0; j < values_; ++j) {
      const double diff = error(j);
      squared += diff * diff;
    }
    if (grads) {
      mse_loss(dy_.data(), state_.y.data(), truth_.data(), values_);  // for its dL/dy
      for (float& d : dy_) d *= grad_weight;
      forecast_backward(grads, scratch_, state_, params, task_.layout_, task_.config_, dy_.data());
    }
    return {squared, long(values_)};
  }

  void add_metrics(long i, const float* params, double* sums) override {
    forecast(i, params);
    double squared = 0, absolute = 0;
    for (int j = 0; j < values_; ++j) {
      const double diff = error(j);
      squared += diff * diff;
      absolute += std::abs(diff);
    }
    sums[0] += squared;
    sums[1] += absolute;
    sums[2] += double(values_);
  }

 private:
  void forecast(long i, const float* params) {
    task_.windows_.copy(i, x_.data(), truth_.data());
    forecast_forward(state_, params, task_.layout_, task_.config_, x_.data());
  }
  double error(int j) const { return double(state_.y[std::size_t(j)]) - double(truth_[std::size_t(j)]); }

  const ForecastTask& task_;
  int values_;
  ForwardState<float> state_;
  BackwardScratch<float> scratch_;
  AlignedVector<float> x_, truth_, dy_;  // (seq_len, C), (horizon, C), (horizon, C)
};

ForecastTask::ForecastTask(const ModelConfig& config, const WindowSet& windows)
    : WindowedTask(config, ParameterLayout(config), windows) {}

std::unique_ptr<TaskWorker> ForecastTask::make_worker() const { return std::make_unique<Worker>(*this); }

std::vector<std::string> ForecastTask::metric_names() const { return {"squared_error", "absolute_error", "values"}; }

EvalMetrics forecast_metrics(Trainer& trainer, const ForecastTask& task) {
  EvalMetrics metrics;
  metrics.windows = task.size();
  if (metrics.windows == 0) return metrics;
  const std::vector<double> sums = trainer.metric_sums(task);
  metrics.mse = sums[0] / sums[2];
  metrics.mae = sums[1] / sums[2];
  return metrics;
}

}  // namespace aaren
