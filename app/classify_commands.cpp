// aaren train --task classify / aaren forecast --task classify: classifiers on labelled series.
#include "app/classify_commands.hpp"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "app/cli_args.hpp"
#include "app/device_choice.hpp"
#include "app/train_cli.hpp"
#include "core/classify/classify_run.hpp"
#include "core/classify/prediction_warnings.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/runs/run_catalog.hpp"

namespace aaren::cli {

namespace {

const char* const kTrainClassifyHelp = R"(usage: aaren train --task classify --data TRAIN [--test TEST] --out DIR [--model aaren|transformer|both] [options]

Trains a classifier of whole series: each case of TRAIN (a UEA/UCR .ts file, a
long CSV case_id,label,timestep,dim_0,... or a wide CSV label,t0,t1,...) is one
labelled series, of any length. A stratified part of TRAIN (--val-fraction) is
held out for validation; the best epoch is the one with the highest validation
accuracy, the validation loss breaking ties. Every channel is standardized with
the training part's mean and deviation. Writes a run folder: DIR/config.json,
DIR/model.safetensors, DIR/metrics.json (per-epoch losses and accuracies;
validation accuracy; with --test, test accuracy, per-class precision, recall and
F1 and the confusion matrix) and DIR/loss.csv. With --model both, DIR/aaren and
DIR/transformer, trained on the same split with the same seed.

Data:
  --data TRAIN                labelled series to train on
  --test TEST                 labelled series to report on (same classes and channels)
  --val-fraction F            of TRAIN, stratified by class (default 0.2)
Model:
  --model aaren|transformer|both  the token mixer (default aaren)
  --d-model D                 width (default 64)
  --heads N                   attention heads, dividing d-model (default 4)
  --layers L                  blocks (default 2)
  --d-ff F                    hidden width of the feed-forward layer (default 256)
  --pooling mean|last         the head reads the mean of every step's output, or the
                              last step's (default mean)
  --instance-norm             normalize each series by its own mean and deviation
  --label-smoothing E         cross-entropy against (1 - E) one-hot + E / classes (default 0)
The series' length sets the model's seq_len (the longest case of either file).
For classification the defaults are --epochs 100 --batch 16 --patience 20.
)";

const char* const kForecastClassifyHelp = R"(usage: aaren forecast --task classify --run DIR --data FILE --out predictions.csv

Loads a classification run folder and classifies every case of FILE (.ts or a
classification CSV with the run's classes and channels). Writes one row per case:
case, label (when the file gives it), predicted, then the probability of each
class (p_<class>). When the cases are labelled, prints the accuracy, macro F1 and
confusion matrix.
)";

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt_of_classifier_training(int) { g_interrupted.store(true); }

ClassifierConfig classifier_from(const Args& args) {
  for (const char* forecasting : {"horizon", "seq-len"})
    if (args.has(forecasting))
      throw UsageError(std::string("--") + forecasting +
                       " does not apply to a classifier: the series' own lengths set its seq_len");
  ClassifierConfig c;
  ModelConfig& b = c.backbone;
  b.d_model = int(args.integer("d-model", b.d_model, 1, 8192));
  b.heads = int(args.integer("heads", b.heads, 1, 1024));
  b.layers = int(args.integer("layers", b.layers, 1, 256));
  b.d_ff = int(args.integer("d-ff", b.d_ff, 1, 65536));
  const std::string pooling = args.text("pooling", "mean");
  const auto parsed = classifier_pooling_from_string(pooling);
  if (!parsed) throw UsageError("--pooling must be mean or last, got '" + pooling + "'");
  c.pooling = *parsed;
  c.instance_norm = args.flag("instance-norm");
  c.label_smoothing = args.number("label-smoothing", 0);
  if (!(c.label_smoothing >= 0 && c.label_smoothing < 1))
    throw UsageError("--label-smoothing must be at least 0 and below 1, got " + args.text("label-smoothing", ""));
  // The architecture's own rules (heads dividing d_model) as a usage error; the data sets the rest.
  ClassifierConfig sized = c;
  sized.backbone.seq_len = sized.backbone.horizon = sized.backbone.channels = 1;
  try {
    sized.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return c;
}

void print_data_summary(const ClassifyRunData& data) {
  const LabelledSeriesSet& train = data.train_file;
  int shortest = train.max_length();
  for (const LabelledSeries& s : train.series) shortest = std::min(shortest, s.length);
  std::printf("read %zu cases of %s: %d dimension%s, %d to %d steps, %zu classes\n", train.series.size(),
              train.source.c_str(), train.dims, train.dims == 1 ? "" : "s", shortest, train.max_length(),
              train.class_names.size());
  std::printf("split: %zu training / %zu validation cases (stratified)", data.train.size(), data.validation.size());
  if (data.test_file) std::printf("; test: %zu cases of %s", data.test_file->series.size(), data.test_file->source.c_str());
  std::printf("\n");
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
    csv += csv_field(p.case_id) + "," + (p.label >= 0 ? csv_field(names[std::size_t(p.label)]) : "") + "," +
           csv_field(names[std::size_t(p.predicted)]);
    for (double probability : p.probabilities) csv += "," + format_number(probability);
    csv += "\n";
  }
  return csv;
}

}  // namespace

int run_train_classify(const Arguments& arguments) {
  std::set<std::string> options = {"task", "data",  "test",    "out",     "val-fraction", "model",   "d-model",
                                   "heads", "layers", "d-ff", "pooling", "label-smoothing", "horizon", "seq-len"};
  options.insert(kTrainSettingsOptions.begin(), kTrainSettingsOptions.end());
  const Args args(arguments, options, {"instance-norm"}, "aaren train --task classify");
  if (args.print_help(kTrainClassifyHelp, kTrainSettingsHelp)) return 0;
  require_cpu_device(args.text("device", "cpu"), cpu_only_reason(TrainingTaskKind::classify));
  ClassifyRunRequest request;
  request.data_path = args.required("data");
  request.test_path = args.text("test", "");
  const std::string out = args.required("out");
  const std::vector<ModelKind> kinds = model_kinds_from(args);
  request.model = classifier_from(args);
  request.val_fraction = args.number("val-fraction", 0.2);
  if (!(request.val_fraction > 0 && request.val_fraction <= 0.9))
    throw UsageError("--val-fraction must be above 0 and at most 0.9, got " + args.text("val-fraction", ""));
  request.train = train_settings_from(args);
  const TrainSettings defaults = classification_train_settings();
  if (!args.has("epochs")) request.train.epochs = defaults.epochs;
  if (!args.has("batch")) request.train.batch = defaults.batch;
  if (!args.has("patience")) request.train.patience = defaults.patience;

  std::signal(SIGINT, on_interrupt_of_classifier_training);
  std::signal(SIGTERM, on_interrupt_of_classifier_training);
  const bool terminal = ::isatty(STDOUT_FILENO);
  TrainCallbacks callbacks;
  callbacks.cancel = &g_interrupted;
  callbacks.progress = [terminal](const TrainProgress& p) { print_train_progress(p, terminal); };

  std::vector<std::string> names;
  std::vector<ClassifyRunOutcome> outcomes;
  bool diverged = false;
  for (const ModelKind kind : kinds) {
    const std::string name(to_string(kind));
    request.model.backbone.kind = kind;
    request.out_dir = kinds.size() > 1 ? side_by_side_model_dir(out, kind) : out;
    request.on_data_read = [&](const ClassifyRunData& data) {
      if (outcomes.empty()) print_data_summary(data);
    };
    request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
      std::printf("training %s classifier -> %s, needing %s\n", name.c_str(), request.out_dir.c_str(),
                  describe(memory).c_str());
      std::fflush(stdout);
    };
    outcomes.push_back(train_classify_run(request, callbacks));
    names.push_back(name);
    const ClassifyRunMetrics& m = outcomes.back().metrics;
    std::printf("%s%s\n", terminal ? "\r\033[K" : "", m.message.c_str());
    diverged = diverged || m.stop == "diverged";
    if (g_interrupted.load()) break;
  }

  std::printf("  %-22s", "");
  for (const std::string& name : names) std::printf("%14s", name.c_str());
  std::printf("\n");
  const auto row = [&](const char* label, auto value) {
    std::printf("  %-22s", label);
    for (const ClassifyRunOutcome& o : outcomes) std::printf("%14s", table_cell(value(o.metrics)).c_str());
    std::printf("\n");
  };
  row("validation accuracy", [](const ClassifyRunMetrics& m) { return m.validation.accuracy; });
  if (outcomes.front().metrics.test) {
    row("test accuracy", [](const ClassifyRunMetrics& m) { return m.test->overall.accuracy; });
    row("test macro F1", [](const ClassifyRunMetrics& m) { return m.test->macro_f1; });
    row("test NLL per case", [](const ClassifyRunMetrics& m) { return m.test->overall.nll; });
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      const std::string one_class = one_class_warning(*outcomes[i].metrics.test);
      if (!one_class.empty()) std::printf("warning: the %s classifier %s\n", names[i].c_str(), one_class.c_str());
    }
  }
  std::printf("run folder%s: %s\n", outcomes.size() > 1 ? "s" : "",
              outcomes.size() > 1 ? (out + " (" + names.front() + "/, " + names.back() + "/)").c_str() : out.c_str());
  return diverged ? 1 : 0;
}

int run_forecast_classify(const Arguments& arguments) {
  const Args args(arguments, {"task", "run", "data", "out"}, {}, "aaren forecast --task classify");
  if (args.print_help(kForecastClassifyHelp)) return 0;
  const std::string dir = single_model_run(args.required("run"));
  const LoadedClassifyRun run = load_classify_run(dir);
  const LabelledSeriesSet cases = prepare_classify_cases(run.config, args.required("data"));
  const std::vector<CasePrediction> predictions = classify_cases(run, cases);
  const std::vector<std::string>& names = run.config.data.class_names;
  if (args.has("out")) {
    const std::string out_path = args.text("out", "");
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

}  // namespace aaren::cli
