// aaren train --task classify / aaren forecast --task classify: classifiers on labelled series.

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/baseline_table.hpp"
#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/train_cli.hpp"
#include "core/classify/classify_run.hpp"
#include "core/classify/prediction_warnings.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/runs/run_catalog.hpp"

namespace aaren::cli {

namespace {

const char* const kTrainClassifyText = R"(Trains a classifier of whole series: each case of TRAIN (a UEA/UCR .ts file, a
long CSV case_id,label,timestep,dim_0,... or a wide CSV label,t0,t1,...) is one
labelled series, of any length. Below 1000 training cases the epoch count is
chosen by 5-fold cross-validation on TRAIN, the model then trains on all of it,
and each model is an ensemble of 3 classifiers; from 1000 on (or with
--val-fraction) a stratified part of TRAIN is held out and the best epoch is the
one with the highest validation accuracy, the validation loss breaking ties
(--cv-folds and --ensemble choose otherwise). Every channel is standardized with
the training part's mean and deviation. Writes a run folder: DIR/config.json,
DIR/model.safetensors, DIR/metrics.json (per-epoch losses and accuracies;
validation accuracy; with --test, test accuracy, per-class precision, recall and
F1 and the confusion matrix) and DIR/loss.csv. With --model both, DIR/aaren and
DIR/transformer, trained on the same split with the same seed (--model all adds
DIR/linear, the linear Transformer). The series' length sets the model's seq_len
(the longest case of either file). Classifiers train on the CPU.)";

const char* const kForecastClassifyText = R"(Loads a classification run folder and classifies every case of FILE (.ts or a
classification CSV with the run's classes and channels). Writes one row per case:
case, label (when the file gives it), predicted, then the probability of each
class (p_<class>). When the cases are labelled, prints the accuracy, macro F1 and
confusion matrix.)";

void print_data_summary(const ClassifyRunData& data) {
  const LabelledSeriesSet& train = data.train_file;
  int shortest = train.max_length();
  for (const LabelledSeries& s : train.series) shortest = std::min(shortest, s.length);
  std::printf("read %zu cases of %s: %d dimension%s, %d to %d steps, %zu classes\n", train.series.size(),
              train.source.c_str(), train.dims, train.dims == 1 ? "" : "s", shortest, train.max_length(),
              train.class_names.size());
  if (data.cv_folds > 0)
    std::printf("cross-validation: %d folds of the %zu training cases (stratified), then all of them", data.cv_folds,
                data.train.size());
  else
    std::printf("split: %zu training / %zu validation cases (stratified)", data.train.size(), data.validation.size());
  if (data.test_file) std::printf("; test: %zu cases of %s", data.test_file->series.size(), data.test_file->source.c_str());
  std::printf("\n");
  if (data.members > 1) std::printf("each model is an ensemble of %d classifiers\n", data.members);
  std::fflush(stdout);
}

void print_confusion(const ClassificationReport& report) {
  const std::size_t k = report.classes.size();
  std::printf("confusion matrix (rows: true class, columns: predicted):\n  %-14s", "");
  for (std::size_t j = 0; j < k; ++j) std::printf("%8.7s", report.classes[j].name.c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < k; ++i) {
    std::printf("  %-14.14s", report.classes[i].name.c_str());
    for (std::size_t j = 0; j < k; ++j) std::printf("%8ld", report.confusion[i * k + j]);
    std::printf("\n");
  }
}

void print_class_table(const ClassificationReport& report) {
  std::printf("  %-14s%10s%10s%10s%9s\n", "class", "precision", "recall", "F1", "cases");
  for (const ClassReport& c : report.classes)
    std::printf("  %-14.14s%10s%10s%10s%9ld\n", c.name.c_str(), table_cell(c.precision).c_str(),
                table_cell(c.recall).c_str(), table_cell(c.f1).c_str(), c.support);
}

std::string predictions_csv(const std::vector<CasePrediction>& predictions, const std::vector<std::string>& names) {
  std::string csv = "case,label,predicted";
  for (const std::string& name : names) csv += "," + csv_field("p_" + name);
  csv += "\n";
  for (const CasePrediction& p : predictions) {
    // Appended piece by piece: GCC 12 warns falsely about `"," + text` once this is inlined.
    csv += csv_field(p.case_id);
    csv += ',';
    if (p.label >= 0) csv += csv_field(names[std::size_t(p.label)]);
    csv += ',';
    csv += csv_field(names[std::size_t(p.predicted)]);
    for (double probability : p.probabilities) {
      csv += ',';
      csv += format_number(probability);
    }
    csv += "\n";
  }
  return csv;
}


struct TrainClassifierOptions {
  ClassifyRunRequest request;
  std::string out, model = "aaren", pooling = "mean", schedule, device = "cpu", cv_folds = "auto", members = "auto",
                   augmentation = to_string(kDefaultAugmentation);
  CLI::Option* val_fraction = nullptr;  // to tell it given from its default
};

// "auto" or a whole number in [low, high], for --cv-folds and --ensemble; `automatic` for "auto".
int auto_or_whole(const std::string& option, const std::string& text, int low, int high, int automatic) {
  if (text == "auto") return automatic;
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < low || value > high)
    throw UsageError(option + " must be auto or a whole number from " + std::to_string(low) + " to " +
                     std::to_string(high) + ", got '" + text + "'");
  return value;
}

// --cv-folds: "auto" (by TRAIN's size, unless --val-fraction asks for a held-out part), 0 or K >= 2.
int cv_folds_of(const TrainClassifierOptions& o) {
  const bool held_out_asked = o.val_fraction->count() > 0;
  if (o.cv_folds == "auto") return held_out_asked ? 0 : kCvFoldsAuto;
  const int folds = auto_or_whole("--cv-folds", o.cv_folds, 0, 100, kCvFoldsAuto);
  if (folds == 1) throw UsageError("--cv-folds must be 0 (a held-out part) or at least 2, got 1");
  if (folds > 0 && held_out_asked)
    throw UsageError("--val-fraction does not apply with --cv-folds: every training case is held out once, in its fold");
  return folds;
}

int train_classifier(TrainClassifierOptions& o) {
  require_cpu_device(o.device, cpu_only_reason(TrainingTaskKind::classify));
  ClassifyRunRequest& request = o.request;
  const std::vector<ModelKind> kinds = model_kinds(o.model);
  request.model.pooling = *classifier_pooling_from_string(o.pooling);
  request.cv_folds = cv_folds_of(o);
  request.model.members = auto_or_whole("--ensemble", o.members, 1, ClassifierConfig::kMostMembers, kMembersAuto);
  try {
    request.model.augmentation = classify_augmentation_from_string(o.augmentation);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--augment: ") + e.what());
  }
  // The architecture's own rules (heads dividing d_model) as a usage error; the data sets the rest.
  ClassifierConfig sized = request.model;
  sized.backbone.seq_len = sized.backbone.horizon = sized.backbone.channels = 1;
  sized.members = 1;  // "auto" is chosen once the data is read
  try {
    sized.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  request.train.schedule = schedule_from(o.schedule);

  TerminalTraining training = start_terminal_training();
  std::atomic<bool>& interrupted = training.interrupted;
  const bool terminal = training.terminal;
  const TrainCallbacks& callbacks = training.callbacks;

  bool summary_printed = false;
  const auto outcomes = train_side_by_side(kinds, o.out, interrupted, [&](ModelKind kind, const std::string& dir) {
    const std::string name(to_string(kind));
    request.model.backbone.kind = kind;
    request.out_dir = dir;
    request.on_data_read = [&](const ClassifyRunData& data) {
      if (!summary_printed) print_data_summary(data);
      summary_printed = true;
    };
    request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
      std::printf("training %s classifier -> %s, needing %s\n", name.c_str(), request.out_dir.c_str(),
                  describe(memory).c_str());
      std::fflush(stdout);
    };
    ClassifyRunOutcome outcome = train_classify_run(request, callbacks);
    std::printf("%s%s\n", terminal ? "\r\033[K" : "", outcome.metrics.message.c_str());
    return outcome;
  });
  std::vector<std::string> names;
  for (std::size_t i = 0; i < outcomes.size(); ++i) names.emplace_back(to_string(kinds[i]));

  std::printf("  %-24s", "");
  for (const std::string& name : names) std::printf("%14s", name.c_str());
  std::printf("\n");
  const auto row = [&](const char* label, auto value) {
    std::printf("  %-24s", label);
    for (const ClassifyRunOutcome& o : outcomes) std::printf("%14s", table_cell(value(o.metrics)).c_str());
    std::printf("\n");
  };
  // Under cross-validation the folds' pooled accuracy at the chosen epoch.
  row(outcomes.front().metrics.cross_validation ? "cross-validated accuracy" : "validation accuracy",
      [](const ClassifyRunMetrics& m) { return m.validation.accuracy; });
  if (outcomes.front().metrics.test) {
    row("test accuracy", [](const ClassifyRunMetrics& m) { return m.test->overall.accuracy; });
    row("test macro F1", [](const ClassifyRunMetrics& m) { return m.test->macro_f1; });
    row("test NLL per case", [](const ClassifyRunMetrics& m) { return m.test->overall.nll; });
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      const std::string one_class = one_class_warning(*outcomes[i].metrics.test);
      if (!one_class.empty()) std::printf("warning: the %s classifier %s\n", names[i].c_str(), one_class.c_str());
    }
    if (const auto& baselines = outcomes.front().metrics.test_baselines)
      print_baseline_table(*baselines, outcomes.front().config.data.class_names);
    else if (outcomes.front().metrics.test->overall.cases > 0)
      std::printf("the yardsticks (1-NN Euclidean and DTW) are left out for files this large; "
                  "`aaren baseline --task classify` computes them\n");
  }
  print_run_folders(o.out, kinds, outcomes.size());
  return exit_code_of(outcomes);
}

struct ClassifyOptions {
  std::string run, data, out;
};

int classify(const ClassifyOptions& o) {
  const LoadedClassifyRun run = load_classify_run(single_model_run(o.run));
  const LabelledSeriesSet cases = prepare_classify_cases(run.config, o.data);
  const std::vector<CasePrediction> predictions = classify_cases(run, cases);
  const std::vector<std::string>& names = run.config.data.class_names;
  if (!o.out.empty()) {
    const std::string& out_path = o.out;
    write_file_atomically(out_path, predictions_csv(predictions, names));
    std::printf("wrote %zu cases to %s\n", predictions.size(), out_path.c_str());
  }
  const ClassificationReport report = classification_report(predictions, names);
  if (report.overall.cases == 0) {
    std::printf("the cases of %s have no labels: no accuracy to report\n", cases.source.c_str());
    return 0;
  }
  std::printf("%s classifier on %ld labelled cases: accuracy %s, macro F1 %s, NLL per case %s\n",
              std::string(to_string(run.config.model.backbone.kind)).c_str(), report.overall.cases,
              table_cell(report.overall.accuracy).c_str(), table_cell(report.macro_f1).c_str(),
              table_cell(report.overall.nll).c_str());
  print_class_table(report);
  print_confusion(report);
  return 0;
}

void add_train_classifier_command(CommandLine& cli) {
  auto o = std::make_shared<TrainClassifierOptions>();
  CLI::App* app =
      cli.add_command(cli.root(), "train", train_description(kTrainClassifyText), [o] { return train_classifier(*o); });
  ClassifyRunRequest& r = o->request;
  add_task_option(app, cli.task());
  add_text(app, "--data", r.data_path, "TRAIN", "labelled series to train on")->required()->group(kDataGroup);
  add_text(app, "--test", r.test_path, "TEST", "labelled series to report on (same classes and channels)")
      ->group(kDataGroup);
  add_text(app, "--out", o->out, "DIR", "the run folder")->required()->group(kDataGroup);
  r.val_fraction = 0.2;
  o->val_fraction =
      add_real(app, "--val-fraction", r.val_fraction, {0, false, 0.9, true}, "F", "of TRAIN, stratified by class")
          ->group(kDataGroup);
  add_text(app, "--cv-folds", o->cv_folds, "K|auto",
           "choose the epoch count by K-fold cross-validation on TRAIN, then train on all of it (0: hold out "
           "--val-fraction instead; auto: " + std::to_string(kAutoCvFolds) + " folds below " +
               std::to_string(kCrossValidateBelow) + " training cases, unless --val-fraction is given)")
      ->group(kDataGroup);
  add_model_choice(app, o->model, true);
  const char* const from_the_data = "does not apply to a classifier: the series' own lengths set its seq_len";
  refuse_option(app, "--seq-len", from_the_data);
  refuse_option(app, "--horizon", from_the_data);
  add_architecture_options(app, r.model.backbone, {.seq_len = false, .horizon = false});
  add_choice(app, "--pooling", o->pooling, {"mean", "last"},
             "the head reads the mean of every step's output, or the last step's")
      ->group(kModelGroup);
  add_switch(app, "--instance-norm", r.model.instance_norm, "normalize each series by its own mean and deviation")
      ->group(kModelGroup);
  add_real(app, "--label-smoothing", r.model.label_smoothing, {0, true, 1, false}, "E",
           "cross-entropy against (1 - E) one-hot + E / classes")
      ->group(kModelGroup);
  add_text(app, "--ensemble", o->members, "K|auto",
           "K classifiers trained side by side from their own initial weights, their class probabilities "
           "averaged (auto: " + std::to_string(kAutoMembers) + " below " + std::to_string(kCrossValidateBelow) +
               " training cases, else 1)")
      ->group(kModelGroup);
  add_text(app, "--augment", o->augmentation, "LIST",
           "draw the training cases anew each epoch: slice, scale, jitter, several joined by commas, or none")
      ->group(kTrainingGroup);
  r.train = classification_train_settings();  // more epochs, smaller batches, more patience
  add_training_options(app, r.train, o->schedule);
  add_device_option(app, o->device, "cpu or auto (classifiers train on the CPU)");
}

void add_classify_command(CommandLine& cli) {
  auto o = std::make_shared<ClassifyOptions>();
  CLI::App* app =
      cli.add_command(cli.root(), "forecast", forecast_description(kForecastClassifyText), [o] { return classify(*o); });
  add_task_option(app, cli.task());
  add_text(app, "--run", o->run, "DIR", "the classification run folder")->required()->group(kDataGroup);
  add_text(app, "--data", o->data, "FILE", "the cases to classify")->required()->group(kDataGroup);
  add_text(app, "--out", o->out, "FILE.csv", "one row per case")->group(kDataGroup);
}

}  // namespace

void add_classify_commands(CommandLine& cli) {
  add_train_classifier_command(cli);
  add_classify_command(cli);
  add_classify_baseline_command(cli);
}

}  // namespace aaren::cli
