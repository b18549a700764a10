#include "core/classify/classify_run.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "core/classify/classifier_stream.hpp"
#include "core/classify/classify_task.hpp"
#include "core/classify/cross_validation.hpp"
#include "core/data/label_numbers.hpp"
#include "core/data/scaler.hpp"
#include "core/model/parameter_init.hpp"
#include "core/train/run_steps.hpp"
#include "core/train/train_with_checkpoints.hpp"

namespace aaren {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The channels' scaling over the present values of the training cases `indices` (core/data/scaler).
void fit_channel_scaling(const LabelledSeriesSet& set, const std::vector<long>& indices, ClassifyDataPreparation& d) {
  const std::size_t channels = std::size_t(set.dims);
  std::vector<std::size_t> constant;  // standardized to 0; nothing to warn about in a case's shape
  StandardScaler scaler = fit_standard_scaler(
      channels,
      [&](const auto& visit) {
        for (long i : indices) {
          const std::vector<double>& values = set.series[std::size_t(i)].values;
          for (std::size_t v = 0; v < values.size(); ++v) visit(v % channels, values[v]);
        }
      },
      constant);
  d.channel_mean = std::move(scaler.mean);
  d.channel_std = std::move(scaler.stddev);
}

void standardize(LabelledSeriesSet& set, const ClassifyDataPreparation& d) {
  const StandardScaler scaler{d.channel_mean, d.channel_std};
  const std::size_t channels = d.channel_mean.size();
  for (LabelledSeries& s : set.series)
    for (std::size_t v = 0; v < s.values.size(); ++v) s.values[v] = scaler.scaled(s.values[v], v % channels);
}

// Renumbers the set's labels as `run_names` number them; a label the run does not know is refused.
void renumber_classes(LabelledSeriesSet& set, const std::vector<std::string>& run_names) {
  const RunLabelNumbers numbers(set.class_names, run_names);
  for (LabelledSeries& s : set.series) {
    if (s.label < 0) continue;
    if (numbers.of(s.label) < 0)
      throw std::runtime_error(set.source + ": case " + s.case_id + " has class '" +
                               set.class_names[std::size_t(s.label)] + "', which the run was not trained on (" +
                               numbers.known() + ")");
    s.label = numbers.of(s.label);
  }
  set.class_names = run_names;
}

void require_channels(const LabelledSeriesSet& set, int channels) {
  if (set.dims != channels)
    throw std::runtime_error(set.source + ": the series have " + std::to_string(set.dims) + " dimension" +
                             (set.dims == 1 ? "" : "s") + " but the model reads " + std::to_string(channels));
}

void require_lengths(const LabelledSeriesSet& set, int seq_len) {
  for (const LabelledSeries& s : set.series)
    if (s.length > seq_len)
      throw std::runtime_error(set.source + ": case " + s.case_id + " has " + std::to_string(s.length) +
                               " time steps, more than the " + std::to_string(seq_len) +
                               " the model was trained for (its seq_len)");
}

std::vector<CasePrediction> predict(const ClassifierConfig& config, const std::vector<float>& params,
                                    const LabelledSeriesSet& set) {
  const ParameterLayout layout = ParameterLayout::for_classifier(config);
  std::vector<long> all(set.series.size());
  std::iota(all.begin(), all.end(), 0L);
  const std::vector<double> probabilities = classify_probabilities(config, layout, params.data(), set, all);
  const std::vector<int> predicted = predicted_classes(probabilities, config.classes);
  std::vector<CasePrediction> out;
  const std::size_t k = std::size_t(config.classes);
  for (std::size_t i = 0; i < set.series.size(); ++i)
    out.push_back({set.series[i].case_id, set.series[i].label, predicted[i],
                   std::vector<double>(probabilities.begin() + long(i * k), probabilities.begin() + long((i + 1) * k))});
  return out;
}

ClassifyRunData read_run_data(const ClassifyRunRequest& request, ClassifyRunConfig& config) {
  ClassifyRunData data;
  data.train_file = read_labelled_series(request.data_path);
  LabelledSeriesSet& train = data.train_file;
  if (!train.has_labels())
    throw std::runtime_error(train.source + ": every case needs a class label to train a classifier");
  const std::vector<long> counts = train.class_counts();
  const long present = std::count_if(counts.begin(), counts.end(), [](long n) { return n > 0; });
  if (present < 2)
    throw std::runtime_error(train.source + ": a classifier needs cases of at least two classes; the file's cases have " +
                             std::to_string(present));
  const int folds =
      request.cv_folds == kCvFoldsAuto ? auto_cv_folds(long(train.series.size())) : request.cv_folds;
  if (folds != 0) {
    if (folds < 2 || folds > long(train.series.size()))
      throw std::invalid_argument(train.source + ": cross-validation needs from 2 folds to as many as the " +
                                  std::to_string(train.series.size()) + " training cases, got " +
                                  std::to_string(folds));
    data.train.resize(train.series.size());
    std::iota(data.train.begin(), data.train.end(), 0L);
    data.cv_folds = folds;
  } else {
    if (!(request.val_fraction > 0 && request.val_fraction <= 0.9))
      throw std::invalid_argument("the validation fraction must be above 0 and at most 0.9, got " +
                                  std::to_string(request.val_fraction));
    const StratifiedSplit split = stratified_split(train, request.val_fraction, request.train.seed);
    if (split.validation.empty())
      throw std::runtime_error(train.source + ": no class has two cases, so there is nothing to validate on");
    data.train = split.train;
    data.validation = split.validation;
  }
  data.members =
      request.model.members == kMembersAuto ? auto_members(long(train.series.size())) : request.model.members;
  if (!request.test_path.empty()) {
    data.test_file = read_labelled_series(request.test_path);
    require_channels(*data.test_file, train.dims);
    renumber_classes(*data.test_file, train.class_names);
    const double cells = yardstick_cells(long(train.series.size()), long(data.test_file->series.size()),
                                         std::max(train.max_length(), data.test_file->max_length()));
    if (data.test_file->has_labels() && cells <= kMostYardstickCells)
      data.test_baselines = neighbour_baselines(train, *data.test_file);
  }

  ClassifyDataPreparation& d = config.data;
  d.data_file = request.data_path;
  d.test_file = request.test_path;
  d.problem_name = train.problem_name;
  d.class_names = train.class_names;
  d.val_fraction = request.val_fraction;
  d.cv_folds = data.cv_folds;
  fit_channel_scaling(train, data.train, d);
  standardize(train, d);
  if (data.test_file) standardize(*data.test_file, d);
  return data;
}

}  // namespace

StratifiedSplit stratified_split(const LabelledSeriesSet& set, double fraction, unsigned seed) {
  std::vector<std::vector<long>> by_class(set.class_names.size());
  for (std::size_t i = 0; i < set.series.size(); ++i) {
    const int label = set.series[i].label;
    if (label < 0 || label >= int(by_class.size()))
      throw std::invalid_argument(set.source + ": case " + set.series[i].case_id + " has no class to split by");
    by_class[std::size_t(label)].push_back(long(i));
  }
  std::mt19937 rng(seed);
  StratifiedSplit split;
  for (std::vector<long>& cases : by_class) {
    std::shuffle(cases.begin(), cases.end(), rng);
    const long n = long(cases.size());
    long validation = std::lround(fraction * double(n));
    if (fraction > 0 && n >= 2) validation = std::clamp(validation, 1L, n - 1);
    else validation = 0;
    split.validation.insert(split.validation.end(), cases.begin(), cases.begin() + validation);
    split.train.insert(split.train.end(), cases.begin() + validation, cases.end());
  }
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.validation.begin(), split.validation.end());
  return split;
}

int auto_members(long training_cases) { return training_cases < kCrossValidateBelow ? kAutoMembers : 1; }

int auto_cv_folds(long training_cases) {
  return training_cases < kCrossValidateBelow ? int(std::min<long>(kAutoCvFolds, training_cases)) : 0;
}

TrainSettings classification_train_settings() {
  TrainSettings settings;
  settings.epochs = 100;
  settings.batch = 16;
  settings.patience = 20;
  return settings;
}

ClassifyRunOutcome train_classify_run(const ClassifyRunRequest& request, const TrainCallbacks& callbacks) {
  ClassifyRunOutcome outcome;
  ClassifyRunConfig& config = outcome.config;
  ClassifyRunMetrics& metrics = outcome.metrics;
  std::optional<ClassifyRunData> data;
  const RunSteps steps{
      [&] {
        data = read_run_data(request, config);
        if (request.on_data_read) request.on_data_read(*data);
      },
      [&] {
        config.model = request.model;
        config.model.members = data->members;
        ModelConfig& backbone = config.model.backbone;
        backbone.channels = data->train_file.dims;
        backbone.horizon = 1;
        backbone.seq_len = std::max(data->train_file.max_length(), data->test_file ? data->test_file->max_length() : 1);
        config.model.classes = int(data->train_file.class_names.size());
        config.model.validate();
        config.train = request.train;
        // The classifier's activations are the forecaster's blocks over seq_len steps plus a head of K
        // numbers, so the forecasting estimate of the same blocks bounds what training needs.
        return require_training_memory(backbone, config.train.threads);
      },
      [&] { write_classify_run_config(request.out_dir, config); },
      [&] {
        const ParameterLayout layout = ParameterLayout::for_classifier(config.model);
        std::vector<float> params;
        std::mt19937 rng(request.train.seed);
        init_parameters(params, layout, rng);
        TrainSettings settings = request.train;
        std::optional<CrossValidation> cv;
        if (data->cv_folds > 0) {
          cv = cross_validate_epochs(config.model, data->train_file, data->train, data->cv_folds, request.train,
                                     callbacks);
          metrics.cross_validation = cv;
          if (cv->chosen_epoch == 0 && callbacks.cancel && callbacks.cancel->load()) {
            metrics.stop = to_string(TrainStop::cancelled);
            metrics.message = "cancelled during cross-validation: no model was trained on all of TRAIN";
            write_classify_run_metrics(request.out_dir, metrics);
            return;
          }
          if (cv->chosen_epoch == 0)
            throw std::runtime_error("cross-validation stopped after " + std::to_string(cv->accuracy.size()) + " of " +
                                     std::to_string(settings.epochs) +
                                     " epochs on a fold (the loss was not finite); try a lower --lr");
          // Every training case, for the chosen number of epochs; the last epoch's weights are kept.
          settings.epochs = cv->chosen_epoch;
          settings.patience = 0;
        }
        // Under cross-validation there is no held-out part: the trainer's validation set is the
        // training set, and the validation numbers reported are the folds' pooled ones.
        const ClassifyTask train_task(config.model, data->train_file, data->train, request.train.seed),
            val_task(config.model, data->train_file, cv ? data->train : data->validation);

        metrics.validation = {kNaN, kNaN, long(data->validation.size())};
        Trainer trainer(layout, params, settings);
        // Each epoch's accuracies; the validation one chooses the best epoch.
        ClassifyEvalMetrics last_validation;
        TrainCallbacks scored = callbacks;
        if (cv && callbacks.progress)
          // The last phase of cross-validation: an epoch's validation numbers are the folds' pooled ones.
          scored.progress = [&](const TrainProgress& p) {
            TrainProgress all = p;
            all.fold = cv->folds + 1;
            all.folds = cv->folds;
            if (p.epoch_end) {
              all.val_loss = cv->loss.at(std::size_t(p.epoch - 1));
              all.val_score = cv->accuracy.at(std::size_t(p.epoch - 1));
            }
            callbacks.progress(all);
          };
        scored.validation_score_name = "validation accuracy";
        scored.validation_score = [&] {
          const int epoch = int(metrics.train_accuracy.size());
          metrics.train_accuracy.push_back(classify_metrics(trainer, train_task).accuracy);
          if (cv) {
            last_validation = {cv->accuracy[std::size_t(epoch)], cv->loss[std::size_t(epoch)], cv->cases};
            metrics.val_accuracy.push_back(last_validation.accuracy);
            return double(epoch);  // rising, so that the last epoch is the one kept
          }
          last_validation = classify_metrics(trainer, val_task);
          metrics.val_accuracy.push_back(last_validation.accuracy);
          return last_validation.accuracy;
        };
        const CheckpointedRun run{
            metrics,
            [&](const std::vector<float>& weights) { write_classify_checkpoint(request.out_dir, config, weights); },
            [&] { write_classify_run_metrics(request.out_dir, metrics); },
            [&](const EpochRecord&) { metrics.validation = last_validation; },
            [&] {
              if (cv) {
                metrics.validation = last_validation;
                for (EpochRecord& e : metrics.epochs) e.val_loss = cv->loss.at(std::size_t(e.epoch - 1));
              } else {
                metrics.validation = classify_metrics(trainer, val_task);
              }
              if (data->test_file) {
                metrics.test = classification_report(predict(config.model, params, *data->test_file),
                                                      config.data.class_names);
                metrics.test_baselines = data->test_baselines;
              }
            }};
        train_with_checkpoints(trainer, params, train_task, val_task, run, scored);
      }};
  run_in_order(steps, request.out_dir, request.on_memory_checked);
  return outcome;
}

LabelledSeriesSet prepare_classify_cases(const ClassifyRunConfig& config, const std::string& path) {
  LabelledSeriesSet set = read_labelled_series(path);
  require_channels(set, config.model.backbone.channels);
  require_lengths(set, config.model.backbone.seq_len);
  renumber_classes(set, config.data.class_names);
  standardize(set, config.data);
  return set;
}

std::vector<CasePrediction> classify_cases(const LoadedClassifyRun& run, const LabelledSeriesSet& prepared) {
  return predict(run.config.model, run.params, prepared);
}

ClassificationReport classification_report(std::span<const CasePrediction> predictions,
                                           const std::vector<std::string>& class_names) {
  const int k = int(class_names.size());
  ClassificationReport report;
  std::vector<int> labels, predicted;
  double nll = 0;
  for (const CasePrediction& p : predictions) {
    if (p.label < 0) continue;
    labels.push_back(p.label);
    predicted.push_back(p.predicted);
    nll -= std::log(std::max(p.probabilities[std::size_t(p.label)], std::numeric_limits<double>::min()));
  }
  report.confusion = confusion_matrix(labels, predicted, k);
  const long cases = long(labels.size());
  long correct = 0;
  for (int c = 0; c < k; ++c) correct += report.confusion[std::size_t(c * k + c)];
  report.overall = {cases > 0 ? double(correct) / double(cases) : kNaN, cases > 0 ? nll / double(cases) : kNaN, cases};
  double f1_sum = 0;
  int f1_classes = 0;
  for (int c = 0; c < k; ++c) {
    long support = 0, predicted_as = 0;
    for (int j = 0; j < k; ++j) {
      support += report.confusion[std::size_t(c * k + j)];
      predicted_as += report.confusion[std::size_t(j * k + c)];
    }
    const double hits = double(report.confusion[std::size_t(c * k + c)]);
    ClassReport r{class_names[std::size_t(c)], predicted_as > 0 ? hits / double(predicted_as) : kNaN,
                  support > 0 ? hits / double(support) : kNaN, kNaN, support};
    if (support > 0) {
      // A class never predicted has precision 0 for the purpose of F1: none of its cases was found.
      const double precision = predicted_as > 0 ? r.precision : 0.0;
      r.f1 = precision + r.recall > 0 ? 2 * precision * r.recall / (precision + r.recall) : 0.0;
      f1_sum += r.f1;
      ++f1_classes;
    }
    report.classes.push_back(r);
  }
  report.macro_f1 = f1_classes > 0 ? f1_sum / f1_classes : kNaN;
  return report;
}

std::vector<double> running_class_probabilities(const LoadedClassifyRun& run, const LabelledSeries& prepared_case) {
  const ClassifierConfig& config = run.config.model;
  check_labelled_case(prepared_case, config, false);
  const ParameterLayout layout = ParameterLayout::for_classifier(config);
  std::vector<float> x(prepared_case.values.begin(), prepared_case.values.end());
  const std::vector<float> running =
      running_probabilities<float>(config, layout, run.params.data(), x.data(), prepared_case.length);
  return std::vector<double>(running.begin(), running.end());
}

}  // namespace aaren
