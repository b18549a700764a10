#pragma once
// Classification as a training task (docs/DESIGN.md section 10): example i is the case
// set.series[indices[i]], its values already standardized by the caller (NaN where missing); its
// objective is the classifier's loss (classifier_loss: cross-entropy with the configured label
// smoothing), one term per case. Its metrics are the sums from which accuracy and the unsmoothed
// negative log-likelihood per case are formed. An ensemble (config.members > 1) is its members side
// by side in the parameters: the loss is the mean of theirs, the probabilities their mean.
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/classify/classifier_config.hpp"
#include "core/classify/classifier_model.hpp"
#include "core/classify/labelled_series.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/train/trainer.hpp"
#include "core/train/training_task.hpp"

namespace aaren {

// The metric sums of ClassifyTask, in its metric_names() order.
enum ClassifyMetricSum { kClassNllSum, kCorrectSum, kCasesSum, kClassifyMetricSums };

// Over the cases of a part; accuracy and nll are NaN when there are none.
struct ClassifyEvalMetrics {
  double accuracy = 0;  // fraction of cases whose most probable class is theirs
  double nll = 0;       // mean of -log P(label), without label smoothing
  long cases = 0;
};

ClassifyEvalMetrics classify_eval_metrics(std::span<const double> sums /*(kClassifyMetricSums)*/);

// Throws std::invalid_argument, naming the case by its case_id, when `series` cannot be read by the
// model: a length outside 1..capacity, values that are not (length, channels), or (with
// require_label) a label outside 0..classes-1.
void check_labelled_case(const LabelledSeries& series, const ClassifierConfig& config, bool require_label);

class ClassifyTask : public TrainingTask {
 public:
  // Refers to `set`, which must outlive the task and its workers. Throws std::invalid_argument when
  // the set's dims differ from the model's channels, an index is outside the set, or a case does not
  // fit (check_labelled_case with its label required). With the config's augmentation, a case is
  // augmented whenever its loss is taken with gradients (a training step), drawn from
  // augmentation_seed, the case's index in `set` and how often it was drawn before (once an epoch):
  // the same whatever the threads.
  ClassifyTask(const ClassifierConfig& config, const LabelledSeriesSet& set, std::vector<long> indices,
               std::uint64_t augmentation_seed = 0);

  long size() const override { return long(indices_.size()); }
  std::size_t parameter_count() const override { return layout_.total(); }
  std::unique_ptr<TaskWorker> make_worker() const override;
  // nll, correct, cases (see ClassifyMetricSum).
  std::vector<std::string> metric_names() const override;

  const ClassifierConfig& config() const { return config_; }
  const ParameterLayout& layout() const { return layout_; }
  const LabelledSeries& example(long i) const { return set_.series[std::size_t(indices_[std::size_t(i)])]; }

 private:
  class Worker;
  ClassifierConfig config_;
  ParameterLayout layout_;
  const LabelledSeriesSet& set_;
  std::vector<long> indices_;
  std::uint64_t augmentation_seed_;
  mutable std::vector<std::atomic<std::uint32_t>> times_drawn_;  // per example
};

// The metrics of every case of the task under the trainer's parameters.
ClassifyEvalMetrics classify_metrics(Trainer& trainer, const ClassifyTask& task);

// P(class) (classes) of one case (its label is not read) under float parameters laid out by
// `layout` (ParameterLayout::for_classifier(config)). Throws like check_labelled_case.
std::vector<double> classify_probabilities(const ClassifierConfig& config, const ParameterLayout& layout,
                                           const float* params, const LabelledSeries& series);

// The same for the cases set.series[indices[i]], with one model state for all of them:
// (indices.size(), classes) row-major, for predictions and confusion matrices.
std::vector<double> classify_probabilities(const ClassifierConfig& config, const ParameterLayout& layout,
                                           const float* params, const LabelledSeriesSet& set,
                                           std::span<const long> indices);

// The most probable class of each row of `probabilities` (cases, classes); the first on ties.
std::vector<int> predicted_classes(std::span<const double> probabilities, int classes);

// Counts (classes, classes): row = the case's label, column = its predicted class.
std::vector<long> confusion_matrix(std::span<const int> labels, std::span<const int> predicted, int classes);

}  // namespace aaren
