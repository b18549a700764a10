#pragma once
// Where a Trainer's arithmetic runs when it is not the CPU workers: an engine that holds the
// parameters, the optimizer state and the examples of a training and a validation set, and does a
// whole step (forward, backward, clipping, AdamW) by itself, e.g. on a GPU with no host round trip
// inside the step (gpu/forecast_device.hpp). The Trainer keeps the loop: order, schedule, early
// stopping, progress, cancellation and the best weights.
#include <string>

namespace aaren {

struct StepReport {
  double loss = 0;       // the batch's objective: the mean over its examples of sum / terms
  double grad_norm = 0;  // the gradient's L2 norm before clipping
};

class StepEngine {
 public:
  virtual ~StepEngine() = default;
  // In words, for progress lines and logs, e.g. "cuda: NVIDIA H100 80GB HBM3".
  virtual std::string device() const = 0;
  // Host parameters, laid out by the trainer's ParameterLayout, in and out. set_params also
  // restarts the optimizer (its moments and step count).
  virtual void set_params(const float* params) = 0;
  virtual void get_params(float* params) = 0;
  // One step on training examples examples[0..count): the gradient of the batch's objective,
  // clipped to the clip norm, then AdamW at learning rate lr. When the loss or the norm is not
  // finite the update is skipped, so the parameters stay the last finite ones.
  virtual StepReport step(const long* examples, int count, double lr) = 0;
  // (sum of sums) / (sum of terms) over every example of the validation set.
  virtual double validation_loss() = 0;
};

}  // namespace aaren
