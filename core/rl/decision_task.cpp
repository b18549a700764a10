#include "core/rl/decision_task.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace aaren::rl {

std::vector<Segment> decision_segments(const DecisionSteps& steps, const std::vector<long>& episodes, ActMode mode,
                                       int context) {
  std::vector<Segment> segments;
  for (const long index : episodes) {
    const EpisodeRows& e = steps.episodes[std::size_t(index)];
    if (mode == ActMode::stream) {
      if (e.length > context)
        throw std::invalid_argument("an episode of " + std::to_string(e.length) + " steps is longer than the context of " +
                                    std::to_string(context) + " steps a streaming model is trained with");
      segments.push_back({e.begin, e.length});
      continue;
    }
    for (int t = 0; t < e.length; ++t) {
      const int first = std::max(0, t - context + 1);
      segments.push_back({e.begin + first, t - first + 1});
    }
  }
  return segments;
}

class DecisionTask::Worker : public TaskWorker {
 public:
  explicit Worker(const DecisionTask& task) : task_(task), state_(task.config_), scratch_(task.config_) {}

  LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
    const Segment& s = forward(i, params);
    const long terms = long(s.length) * task_.config_.action_dim;
    const float sum = decision_squared_error<float>(grads ? scratch_.dpredicted.data() : nullptr, state_,
                                                    task_.config_, inputs(s).actions, grad_weight / float(terms));
    if (grads) decision_backward<float>(grads, scratch_, state_, params, task_.layout_, task_.config_, inputs(s));
    return {double(sum), terms};
  }

  void add_metrics(long i, const float* params, double* sums) override {
    const Segment& s = forward(i, params);
    sums[0] += double(decision_squared_error<float>(nullptr, state_, task_.config_, inputs(s).actions));
    sums[1] += double(long(s.length) * task_.config_.action_dim);
  }

 private:
  DecisionInputs<float> inputs(const Segment& s) const {
    const DecisionSteps& d = task_.steps_;
    return {d.returns_to_go.data() + s.begin, d.states.data() + s.begin * d.state_dim,
            d.actions.data() + s.begin * d.action_dim, d.timesteps.data() + s.begin};
  }

  const Segment& forward(long i, const float* params) {
    const Segment& s = task_.segments_[std::size_t(i)];
    decision_forward<float>(state_, params, task_.layout_, task_.config_, inputs(s), s.length);
    return s;
  }

  const DecisionTask& task_;
  DecisionState<float> state_;
  DecisionScratch<float> scratch_;
};

DecisionTask::DecisionTask(const DecisionConfig& config, const DecisionSteps& steps, std::vector<Segment> segments)
    : config_(config), layout_(ParameterLayout::for_decision(config)), steps_(steps), segments_(std::move(segments)) {
  if (steps.state_dim != config.state_dim || steps.action_dim != config.action_dim)
    throw std::invalid_argument("the data's steps have " + std::to_string(steps.state_dim) + " state and " +
                                std::to_string(steps.action_dim) + " action values; the model reads " +
                                std::to_string(config.state_dim) + " and " + std::to_string(config.action_dim));
  for (const Segment& s : segments_)
    if (s.length < 1 || s.length > config.context || s.begin < 0 ||
        s.begin + s.length > long(steps.returns_to_go.size()))
      throw std::invalid_argument("a segment of " + std::to_string(s.length) + " steps at row " +
                                  std::to_string(s.begin) + " does not fit the data or the context");
}

std::unique_ptr<TaskWorker> DecisionTask::make_worker() const { return std::make_unique<Worker>(*this); }

double decision_action_mse(Trainer& trainer, const DecisionTask& task) {
  if (task.size() == 0) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> sums = trainer.metric_sums(task);
  return sums[0] / sums[1];
}

}  // namespace aaren::rl
