#pragma once
// Event modelling as a training task: example i is window i of an EventWindows; its objective is
// the event model's loss (event_loss), the mean over the window's scored events of the time NLL
// (gaps in units of the time scale s) plus the mark NLL. Its metrics are the sums from which the
// numbers the temporal point process literature reports are formed: NLL per event in the data's
// time unit, RMSE of the predicted next time, mark accuracy.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/events/event_model.hpp"
#include "core/events/event_windows.hpp"
#include "core/train/trainer.hpp"
#include "core/train/training_task.hpp"

namespace aaren {

// Over every scored event of a part. The mark numbers are NaN for an unmarked model; all are NaN
// when there are no events.
struct EventEvalMetrics {
  double nll_per_event = 0;       // time NLL (density per data time unit) + mark NLL
  double time_nll_per_event = 0;  // -log p(gap), gap in the data's time unit
  double mark_nll_per_event = 0;  // -log P(mark)
  double rmse = 0;                // of the predicted next time (the mixture's mean), data time unit
  double accuracy = 0;            // fraction of events whose most probable mark is theirs
  long events = 0;
};

// The metric sums of EventTask, in its metric_names() order.
enum EventMetricSum { kTimeNllSum, kMarkNllSum, kSquaredErrorSum, kCorrectMarksSum, kPredictionsSum, kEventMetricSums };

// From the sums (time NLL in units of s, as event_loss gives it) to the reported numbers.
EventEvalMetrics event_eval_metrics(std::span<const double> sums /*(kEventMetricSums)*/, const EventModelConfig& config);

class EventTask : public WindowedTask<EventModelConfig, EventWindows> {
 public:
  // Refers to `windows`, which must outlive the task and its workers.
  EventTask(const EventModelConfig& config, const EventWindows& windows);

  std::unique_ptr<TaskWorker> make_worker() const override;
  // time_nll, mark_nll, squared_error, correct_marks, predictions (see EventMetricSum).
  std::vector<std::string> metric_names() const override;

 private:
  class Worker;
};

// The metrics of every window of the task under the trainer's parameters. Its nll_per_event is the
// trainer's mean_loss of the same task plus log s (the time NLL moved from units of s to the data's).
EventEvalMetrics event_metrics(Trainer& trainer, const EventTask& task);

}  // namespace aaren
