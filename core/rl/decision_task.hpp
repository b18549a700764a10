#pragma once
// The Decision Transformer as a training task (docs/DESIGN.md section 11). Example i is a segment of
// consecutive steps of one episode, its objective the mean squared error of the predicted actions
// (one term per step and action value):
//   window  the segments a windowed actor reads: one ending at every step of every episode, K steps
//           long or from the episode's start when the step is earlier (so the short contexts of an
//           episode's first steps are trained on, as the actor meets them)
//   stream  every episode whole, as a streaming actor reads it (the context holds the longest)
#include <memory>
#include <string>
#include <vector>

#include "core/model/parameter_layout.hpp"
#include "core/rl/decision_actor.hpp"
#include "core/rl/decision_data.hpp"
#include "core/rl/decision_transformer.hpp"
#include "core/train/trainer.hpp"
#include "core/train/training_task.hpp"

namespace aaren::rl {

struct Segment {
  long begin = 0;  // the first row in DecisionSteps
  int length = 0;
};

// The segments of `episodes` (indices into steps.episodes) for `mode`. Throws std::invalid_argument
// in stream mode for an episode longer than the context.
std::vector<Segment> decision_segments(const DecisionSteps& steps, const std::vector<long>& episodes, ActMode mode,
                                       int context);

class DecisionTask : public TrainingTask {
 public:
  // Refers to `steps`, which must outlive the task and its workers. Throws std::invalid_argument when
  // the data's dimensions differ from the model's.
  DecisionTask(const DecisionConfig& config, const DecisionSteps& steps, std::vector<Segment> segments);

  long size() const override { return long(segments_.size()); }
  std::size_t parameter_count() const override { return layout_.total(); }
  std::unique_ptr<TaskWorker> make_worker() const override;
  std::vector<std::string> metric_names() const override { return {"squared_error", "values"}; }

  const DecisionConfig& config() const { return config_; }
  const ParameterLayout& layout() const { return layout_; }

 private:
  class Worker;
  DecisionConfig config_;
  ParameterLayout layout_;
  const DecisionSteps& steps_;
  std::vector<Segment> segments_;
};

// The mean squared error of the predicted actions over every segment of the task.
double decision_action_mse(Trainer& trainer, const DecisionTask& task);

}  // namespace aaren::rl
