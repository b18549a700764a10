#include "core/events/event_task.hpp"

#include <cmath>
#include <limits>

namespace aaren {

class EventTask::Worker : public TaskWorker {
 public:
  explicit Worker(const EventTask& task) : task_(task), state_(task.config_), scratch_(task.config_) {}

  LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
    forward(i, params);
    const EventModelConfig& c = task_.config_;
    const bool marked = c.marks > 0;
    const EventMetrics m = event_loss<float>(grads ? scratch_.dtime.data() : nullptr,
                                             grads && marked ? scratch_.dmark.data() : nullptr, state_, c, grad_weight);
    if (grads)
      event_backward<float>(grads, scratch_, state_, params, task_.layout_, c, scratch_.dtime.data(),
                            marked ? scratch_.dmark.data() : nullptr);
    return {m.time_nll + m.mark_nll, m.predictions};
  }

  void add_metrics(long i, const float* params, double* sums) override {
    forward(i, params);
    const EventMetrics m = event_loss<float>(nullptr, nullptr, state_, task_.config_);
    sums[kTimeNllSum] += m.time_nll;
    sums[kMarkNllSum] += m.mark_nll;
    sums[kSquaredErrorSum] += m.squared_error;
    sums[kCorrectMarksSum] += double(m.correct_marks);
    sums[kPredictionsSum] += double(m.predictions);
  }

 private:
  void forward(long i, const float* params) {
    event_forward<float>(state_, params, task_.layout_, task_.config_, task_.windows_.window(i));
  }

  const EventTask& task_;
  EventForwardState<float> state_;
  EventBackwardScratch<float> scratch_;
};

EventTask::EventTask(const EventModelConfig& config, const EventWindows& windows)
    : WindowedTask(config, ParameterLayout::for_events(config), windows) {}

std::unique_ptr<TaskWorker> EventTask::make_worker() const { return std::make_unique<Worker>(*this); }

std::vector<std::string> EventTask::metric_names() const {
  return {"time_nll", "mark_nll", "squared_error", "correct_marks", "predictions"};
}

EventEvalMetrics event_eval_metrics(std::span<const double> sums, const EventModelConfig& config) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  EventEvalMetrics m;
  m.events = long(sums[kPredictionsSum]);
  if (m.events == 0) return {nan, nan, nan, nan, nan, 0};
  const double n = double(m.events);
  const bool marked = config.marks > 0;
  m.time_nll_per_event = time_nll_in_data_units(sums[kTimeNllSum], m.events, config.time_scale) / n;
  m.mark_nll_per_event = marked ? sums[kMarkNllSum] / n : nan;
  m.nll_per_event = m.time_nll_per_event + (marked ? m.mark_nll_per_event : 0.0);
  m.rmse = std::sqrt(sums[kSquaredErrorSum] / n);
  m.accuracy = marked ? sums[kCorrectMarksSum] / n : nan;
  return m;
}

EventEvalMetrics event_metrics(Trainer& trainer, const EventTask& task) {
  if (task.size() == 0) return event_eval_metrics(std::vector<double>(kEventMetricSums, 0.0), task.config());
  return event_eval_metrics(trainer.metric_sums(task), task.config());
}

}  // namespace aaren
