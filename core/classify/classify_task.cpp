#include "core/classify/classify_task.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/nn/softmax.hpp"

namespace aaren {

namespace {

std::string case_name(const LabelledSeries& series) {
  return series.case_id.empty() ? std::string("a case") : "case " + series.case_id;
}

// Adds the class probabilities of one case, the mean over the ensemble's members, to out (K): its
// values copied into x (capacity, C) as the model's scalar type and run through every member.
void add_mean_probabilities(ClassifierState<float>& state, std::vector<float>& x, const float* params,
                            const ParameterLayout& layout, const ClassifierConfig& config, const LabelledSeries& series,
                            double* out) {
  std::copy(series.values.begin(), series.values.end(), x.begin());
  const std::size_t member = config.member_parameters(layout.total());
  for (int m = 0; m < config.members; ++m) {
    classifier_forward<float>(state, params + std::size_t(m) * member, layout, config, x.data(), series.length);
    for (int k = 0; k < config.classes; ++k) out[k] += double(state.probs[std::size_t(k)]) / config.members;
  }
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
      : task_(task),
        state_(task.config_),
        scratch_(task.config_),
        x_(input_buffer(task.config_)),
        member_log_p_(std::size_t(task.config_.members)),
        mean_p_(std::size_t(task.config_.classes)) {}

  // An ensemble's loss is the mean of its members' (each member's gradient its own loss's, over
  // the member count).
  LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
    const LabelledSeries& series = task_.example(i);
    if (grads && task_.config_.augmentation.any()) augment(i, series);
    else std::copy(series.values.begin(), series.values.end(), x_.begin());
    const ClassifierConfig& c = task_.config_;
    const std::size_t member = c.member_parameters(task_.layout_.total());
    const float weight = grad_weight / float(c.members);
    double total = 0;
    for (int m = 0; m < c.members; ++m) {
      const float* p = params + std::size_t(m) * member;
      classifier_forward<float>(state_, p, task_.layout_, c, x_.data(), series.length);
      total += double(classifier_loss<float>(grads ? scratch_.dlogits.data() : nullptr, state_, c, series.label, weight));
      if (grads)
        classifier_backward<float>(grads + std::size_t(m) * member, scratch_, state_, p, task_.layout_, c,
                                   scratch_.dlogits.data());
    }
    return {total / c.members, 1};
  }

  // -log P(label) from the logits, so that a confident mistake does not round to log 0; an
  // ensemble's P is its members' mean, and its prediction the class of the highest mean.
  void add_metrics(long i, const float* params, double* sums) override {
    const LabelledSeries& series = task_.example(i);
    const ClassifierConfig& c = task_.config_;
    const int K = c.classes, label = series.label;
    const std::size_t member = c.member_parameters(task_.layout_.total());
    std::copy(series.values.begin(), series.values.end(), x_.begin());
    std::fill(mean_p_.begin(), mean_p_.end(), 0.0);
    for (int m = 0; m < c.members; ++m) {
      classifier_forward<float>(state_, params + std::size_t(m) * member, task_.layout_, c, x_.data(), series.length);
      const float* logits = state_.logits.data();
      const double top = double(*std::max_element(logits, logits + K));
      double total = 0;
      for (int k = 0; k < K; ++k) total += std::exp(double(logits[k]) - top);
      member_log_p_[std::size_t(m)] = double(logits[label]) - top - std::log(total);
      for (int k = 0; k < K; ++k) mean_p_[std::size_t(k)] += double(state_.probs[std::size_t(k)]) / c.members;
    }
    sums[kClassNllSum] -= log_sum_exp(member_log_p_.data(), c.members) - std::log(double(c.members));
    sums[kCorrectSum] += most_probable(mean_p_.data(), K) == label ? 1.0 : 0.0;
    sums[kCasesSum] += 1.0;
  }

 private:
  void augment(long i, const LabelledSeries& series) {
    const std::uint32_t times = task_.times_drawn_[std::size_t(i)].fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t draw =
        augmentation_draw(task_.augmentation_seed_, std::uint64_t(task_.indices_[std::size_t(i)]), times);
    augment_case(series, task_.config_.backbone.channels, task_.config_.augmentation, draw, x_.data());
  }

  const ClassifyTask& task_;
  ClassifierState<float> state_;
  ClassifierScratch<float> scratch_;
  std::vector<float> x_;
  std::vector<double> member_log_p_, mean_p_;
};

ClassifyTask::ClassifyTask(const ClassifierConfig& config, const LabelledSeriesSet& set, std::vector<long> indices,
                           std::uint64_t augmentation_seed)
    : config_(config),
      layout_(ParameterLayout::for_classifier(config)),
      set_(set),
      indices_(std::move(indices)),
      augmentation_seed_(augmentation_seed),
      times_drawn_(indices_.size()) {
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
  std::vector<double> probabilities(std::size_t(config.classes), 0.0);
  add_mean_probabilities(state, x, params, layout, config, series, probabilities.data());
  return probabilities;
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
  const std::size_t K = std::size_t(config.classes);
  std::vector<double> probabilities(indices.size() * K, 0.0);
  for (std::size_t i = 0; i < indices.size(); ++i)
    add_mean_probabilities(state, x, params, layout, config, set.series[std::size_t(indices[i])],
                           probabilities.data() + i * K);
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
