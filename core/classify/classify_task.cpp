#include "core/classify/classify_task.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace aaren {

namespace {

std::string case_name(const LabelledSeries& series) {
  return series.case_id.empty() ? std::string("a case") : "case " + series.case_id;
}

// The forward of one case: its values copied into x (capacity, C) as the model's scalar type.
void forward_case(ClassifierState<float>& state, std::vector<float>& x, const float* params,
                  const ParameterLayout& layout, const ClassifierConfig& config, const LabelledSeries& series) {
  std::copy(series.values.begin(), series.values.end(), x.begin());
  classifier_forward<float>(state, params, layout, config, x.data(), series.length);
}

void check_index(long index, const LabelledSeriesSet& set) {
  if (index < 0 || index >= long(set.series.size()))
    throw std::invalid_argument("case index " + std::to_string(index) + " is outside the set's " +
                                std::to_string(set.series.size()) + " cases");
}

std::vector<float> input_buffer(const ClassifierConfig& config) {
  return std::vector<float>(std::size_t(config.backbone.seq_len) * std::size_t(config.backbone.channels), 0.0f);
}

template <class T>
int most_probable(const T* probs, int K) {
  return int(std::max_element(probs, probs + K) - probs);
}

}  // namespace

void check_labelled_case(const LabelledSeries& series, const ClassifierConfig& config, bool require_label) {
  const int capacity = config.backbone.seq_len, C = config.backbone.channels, K = config.classes;
  if (series.length < 1 || series.length > capacity)
    throw std::invalid_argument(case_name(series) + " has " + std::to_string(series.length) +
                                " time steps; the model takes 1 to " + std::to_string(capacity) + " (its seq_len)");
  if (series.values.size() != std::size_t(series.length) * std::size_t(C))
    throw std::invalid_argument(case_name(series) + " has " + std::to_string(series.values.size()) +
                                " values; the model reads " + std::to_string(series.length) + " steps of " +
                                std::to_string(C) + " channels");
  if (require_label && (series.label < 0 || series.label >= K))
    throw std::invalid_argument(case_name(series) + ": label " + std::to_string(series.label) +
                                " is not one of the model's " + std::to_string(K) + " classes (0 to " +
                                std::to_string(K - 1) + ")");
}

class ClassifyTask::Worker : public TaskWorker {
 public:
  explicit Worker(const ClassifyTask& task)
      : task_(task), state_(task.config_), scratch_(task.config_), x_(input_buffer(task.config_)) {}

  LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
    const int label = forward(i, params);
    const ClassifierConfig& c = task_.config_;
    const float value = classifier_loss<float>(grads ? scratch_.dlogits.data() : nullptr, state_, c, label, grad_weight);
    if (grads) classifier_backward<float>(grads, scratch_, state_, params, task_.layout_, c, scratch_.dlogits.data());
    return {double(value), 1};
  }

  void add_metrics(long i, const float* params, double* sums) override {
    const int label = forward(i, params);
    const int K = task_.config_.classes;
    // -log P(label) from the logits, so that a confident mistake does not round to log 0.
    const float* logits = state_.logits.data();
    const double top = double(*std::max_element(logits, logits + K));
    double total = 0;
    for (int k = 0; k < K; ++k) total += std::exp(double(logits[k]) - top);
    sums[kClassNllSum] += top + std::log(total) - double(logits[label]);
    sums[kCorrectSum] += most_probable(state_.probs.data(), K) == label ? 1.0 : 0.0;
    sums[kCasesSum] += 1.0;
  }

 private:
  int forward(long i, const float* params) {
    const LabelledSeries& series = task_.example(i);
    forward_case(state_, x_, params, task_.layout_, task_.config_, series);
    return series.label;
  }

  const ClassifyTask& task_;
  ClassifierState<float> state_;
  ClassifierScratch<float> scratch_;
  std::vector<float> x_;
};

ClassifyTask::ClassifyTask(const ClassifierConfig& config, const LabelledSeriesSet& set, std::vector<long> indices)
    : config_(config), layout_(ParameterLayout::for_classifier(config)), set_(set), indices_(std::move(indices)) {
  if (set.dims != config.backbone.channels)
    throw std::invalid_argument("the cases have " + std::to_string(set.dims) + " values per time step but the model " +
                                "reads " + std::to_string(config.backbone.channels) + " (its channels)");
  for (const long index : indices_) {
    check_index(index, set);
    check_labelled_case(set.series[std::size_t(index)], config, true);
  }
}

std::unique_ptr<TaskWorker> ClassifyTask::make_worker() const { return std::make_unique<Worker>(*this); }

std::vector<std::string> ClassifyTask::metric_names() const { return {"nll", "correct", "cases"}; }

ClassifyEvalMetrics classify_eval_metrics(std::span<const double> sums) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  ClassifyEvalMetrics m;
  m.cases = long(sums[kCasesSum]);
  if (m.cases == 0) return {nan, nan, 0};
  m.accuracy = sums[kCorrectSum] / double(m.cases);
  m.nll = sums[kClassNllSum] / double(m.cases);
  return m;
}

ClassifyEvalMetrics classify_metrics(Trainer& trainer, const ClassifyTask& task) {
  if (task.size() == 0) return classify_eval_metrics(std::vector<double>(kClassifyMetricSums, 0.0));
  return classify_eval_metrics(trainer.metric_sums(task));
}

std::vector<double> classify_probabilities(const ClassifierConfig& config, const ParameterLayout& layout,
                                           const float* params, const LabelledSeries& series) {
  check_labelled_case(series, config, false);
  ClassifierState<float> state(config);
  std::vector<float> x = input_buffer(config);
  forward_case(state, x, params, layout, config, series);
  return std::vector<double>(state.probs.begin(), state.probs.end());
}

std::vector<double> classify_probabilities(const ClassifierConfig& config, const ParameterLayout& layout,
                                           const float* params, const LabelledSeriesSet& set,
                                           std::span<const long> indices) {
  for (const long index : indices) {
    check_index(index, set);
    check_labelled_case(set.series[std::size_t(index)], config, false);
  }
  ClassifierState<float> state(config);
  std::vector<float> x = input_buffer(config);
  std::vector<double> probabilities;
  probabilities.reserve(indices.size() * std::size_t(config.classes));
  for (const long index : indices) {
    forward_case(state, x, params, layout, config, set.series[std::size_t(index)]);
    probabilities.insert(probabilities.end(), state.probs.begin(), state.probs.end());
  }
  return probabilities;
}

std::vector<int> predicted_classes(std::span<const double> probabilities, int classes) {
  if (classes < 1 || probabilities.size() % std::size_t(classes) != 0)
    throw std::invalid_argument(std::to_string(probabilities.size()) + " probabilities are not rows of " +
                                std::to_string(classes) + " classes");
  std::vector<int> predicted(probabilities.size() / std::size_t(classes));
  for (std::size_t i = 0; i < predicted.size(); ++i)
    predicted[i] = most_probable(probabilities.data() + i * std::size_t(classes), classes);
  return predicted;
}

std::vector<long> confusion_matrix(std::span<const int> labels, std::span<const int> predicted, int classes) {
  if (labels.size() != predicted.size())
    throw std::invalid_argument(std::to_string(labels.size()) + " labels but " + std::to_string(predicted.size()) +
                                " predictions");
  std::vector<long> counts(std::size_t(classes) * std::size_t(classes), 0);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const int truth = labels[i], guess = predicted[i];
    if (truth < 0 || truth >= classes || guess < 0 || guess >= classes)
      throw std::invalid_argument("case " + std::to_string(i) + ": label " + std::to_string(truth) + " or prediction " +
                                  std::to_string(guess) + " is not one of " + std::to_string(classes) + " classes");
    ++counts[std::size_t(truth) * std::size_t(classes) + std::size_t(guess)];
  }
  return counts;
}

}  // namespace aaren
