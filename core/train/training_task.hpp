#pragma once
// What the Trainer needs from a learning problem, whatever the model: numbered examples, each with
// a loss that is a sum over some number of terms (the values of a forecast, the events of a
// window), and workers that evaluate it, one per thread. The Trainer owns the loop (AdamW,
// clipping, schedule, early stopping, determinism); a task owns its model and its objective.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/model/parameter_layout.hpp"

namespace aaren {

// An example's objective is sum / terms, and a batch's objective the mean of its examples'. Over a
// whole set, the loss is (sum of sums) / (sum of terms): every term weighs the same there, however
// the terms are spread over the examples. Every example has at least one term.
struct LossTerms {
  double sum = 0;
  long terms = 0;
};

// The buffers one thread needs for forward and backward passes, allocated once when the worker is
// made, so that its calls allocate nothing. One thread uses a worker at a time.
class TaskWorker {
 public:
  virtual ~TaskWorker() = default;
  // Loss of example i under params; when grads is given, also accumulates (+=)
  // grad_weight * d(sum / terms) / dparams into it.
  virtual LossTerms loss(long i, const float* params, float* grads, float grad_weight) = 0;
  // Adds example i's metric sums under params into sums, in metric_names() order.
  virtual void add_metrics(long i, const float* params, double* sums) = 0;
};

class TrainingTask {
 public:
  virtual ~TrainingTask() = default;
  virtual long size() const = 0;  // examples
  // Length of the flat parameter buffer the task's model reads and differentiates.
  virtual std::size_t parameter_count() const = 0;
  // A worker refers to its task, which must outlive it.
  virtual std::unique_ptr<TaskWorker> make_worker() const = 0;
  virtual std::vector<std::string> metric_names() const = 0;
};

// A task whose examples are the windows of a `Windows` set (size() of them) for a model of `Config`
// with its parameters laid out by `layout`: what the forecasting and event tasks share. A derived
// task adds its workers and metric names.
template <class Config, class Windows>
class WindowedTask : public TrainingTask {
 public:
  long size() const override { return windows_.size(); }
  std::size_t parameter_count() const override { return layout_.total(); }
  const Config& config() const { return config_; }

 protected:
  // Refers to `windows`, which must outlive the task and its workers.
  WindowedTask(const Config& config, ParameterLayout layout, const Windows& windows)
      : config_(config), layout_(std::move(layout)), windows_(windows) {}

  Config config_;
  ParameterLayout layout_;
  const Windows& windows_;
};

}  // namespace aaren
