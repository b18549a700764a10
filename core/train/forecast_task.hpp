#pragma once
// Forecasting as a training task: example i is window i of a WindowSet; its objective is the MSE of
// the model's forecast over the window's horizon * channels values, and its metrics are the squared
// and absolute errors from which the MSE and MAE the literature reports are formed.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/model/forecast_model.hpp"
#include "core/train/trainer.hpp"
#include "core/train/training_task.hpp"
#include "core/train/window_set.hpp"

namespace aaren {

struct EvalMetrics {
  double mse = 0;
  double mae = 0;
  long windows = 0;
};

class ForecastTask : public WindowedTask<ModelConfig, WindowSet> {
 public:
  // Refers to `windows`, which must outlive the task and its workers.
  ForecastTask(const ModelConfig& config, const WindowSet& windows);

  std::unique_ptr<TaskWorker> make_worker() const override;
  // squared_error, absolute_error, values (every window has horizon * channels of them).
  std::vector<std::string> metric_names() const override;

 private:
  class Worker;
};

// MSE and MAE over every value of every window of the task under the trainer's parameters (zero
// for a task without windows). The MSE equals the trainer's mean_loss of the same task.
EvalMetrics forecast_metrics(Trainer& trainer, const ForecastTask& task);

}  // namespace aaren
