#pragma once
// Forecasting as a training task: example i is window i of a WindowSet; its objective is the MSE of
// the model's forecast over the window's horizon * K values (K = ModelConfig::outputs(): every
// channel, or the target alone for features MS), and its metrics are the squared and absolute errors
// from which the MSE and MAE the literature reports are formed, overall and per channel forecast.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/model/forecast_model.hpp"
#include "core/train/trainer.hpp"
#include "core/train/training_task.hpp"
#include "core/forecast/window_set.hpp"

namespace aaren {

// Errors of forecasts over a set of windows, in one set of units (scaled, unless said otherwise).
struct EvalMetrics {
  double mse = 0;  // over every value of every window and channel
  double mae = 0;
  long windows = 0;
  // (C) each channel's MSE and MAE over its values; empty where they were not recorded (metrics.json
  // of runs written before them). Every channel has the same number of values, so mse is their mean.
  std::vector<double> channel_mse, channel_mae;
};

// Sums of the errors of forecasts (H, C) against their truth, from which EvalMetrics is formed: the
// one accumulation behind the model's metrics and the naive baselines'.
class ForecastErrorSums {
 public:
  explicit ForecastErrorSums(int channels);
  // One window's forecast and truth, (H, C) each, in the same units.
  void add(const float* forecast, const float* truth, int horizon);
  void clear();
  double squared_sum() const { return squared_; }  // over every value added
  // The metrics of `windows` windows; zero when no value was added.
  EvalMetrics metrics(long windows) const;

  // The flat layout the trainer's metric sums use (ForecastTask::metric_names()): squared and
  // absolute error over everything, the count of values, then each channel's squared errors, then
  // each channel's absolute errors.
  std::size_t flat_size() const;
  void add_to_flat(double* sums) const;
  static EvalMetrics metrics_from_flat(const double* sums, int channels, long windows);

 private:
  int channels_;
  double squared_ = 0, absolute_ = 0, values_ = 0;
  std::vector<double> channel_squared_, channel_absolute_;  // (C)
};

class ForecastTask : public WindowedTask<ModelConfig, WindowSet> {
 public:
  // Refers to `windows`, which must outlive the task and its workers.
  ForecastTask(const ModelConfig& config, const WindowSet& windows);

  std::unique_ptr<TaskWorker> make_worker() const override;
  // squared_error, absolute_error, values (every window has horizon * K of them), then
  // squared_error[c] for each channel c forecast, then absolute_error[c] (ForecastErrorSums' flat layout).
  std::vector<std::string> metric_names() const override;

 private:
  class Worker;
};

// MSE and MAE over every value of every window of the task under the trainer's parameters, overall
// and per channel (zero for a task without windows). The MSE equals the trainer's mean_loss of the
// same task.
EvalMetrics forecast_metrics(Trainer& trainer, const ForecastTask& task);

}  // namespace aaren
