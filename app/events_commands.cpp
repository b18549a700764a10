// aaren train --task events / aaren forecast --task events: the event-model workflow on a CSV log.

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/train_cli.hpp"
#include "core/events/event_baselines.hpp"
#include "core/events/event_run.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/runs/run_catalog.hpp"

namespace aaren::cli {

namespace {

namespace fs = std::filesystem;

const char* const kTrainEventsText = R"(Trains a temporal point process on an event log: a CSV file of event times,
optionally grouped into sequences and marked with a type or a measured value. The
model predicts the time of the next event (a mixture of log-normals over the gap)
and its mark. Writes a run folder: DIR/config.json, DIR/model.safetensors (the
best weights, rewritten as validation improves), DIR/metrics.json (per-epoch
losses; validation and test NLL per event, RMSE of the next time, mark accuracy,
and the NLL of a Poisson process fitted to the training part) and DIR/loss.csv.
With --model both, DIR/aaren and DIR/transformer, compared side by side (--model
all adds DIR/linear, the linear Transformer). Event
models train on the CPU.

The log is split by whole sequences (or by time when it is one sequence). Each
sequence is cut into windows of --window events that share one event with the
next, so every event but a sequence's first is predicted exactly once; NLL per
event is the density per unit of the data's time (the time unit is printed).)";

const char* const kForecastEventsText = R"(Loads an event-model run folder and steps its model through every sequence of the
test part of the log (--data, default: the file it was trained on), predicting
each next event as the run's windows do. Prints the test metrics (NLL per event,
RMSE of the next time, mark accuracy) beside a Poisson process fitted to the
training part and, with --true-process, the process that generated a reference
log, all over the same events. --out writes one row per event: sequence, event,
time, next_time, predicted_next_time (the mean of the predicted density), nll
(of the actual next event), predicted_mark, p_actual_mark.)";

template <class Enum, std::size_t N>
Enum enum_named(const std::string& text, const Enum (&values)[N]) {
  for (const Enum value : values)
    if (text == to_string(value)) return value;
  return values[0];
}

template <class Enum, std::size_t N>
std::vector<std::string> enum_names(const Enum (&values)[N]) {
  std::vector<std::string> names;
  for (const Enum value : values) names.emplace_back(to_string(value));
  return names;
}

constexpr MarkUse kMarkUses[] = {MarkUse::automatic, MarkUse::categorical, MarkUse::feature, MarkUse::none};
constexpr TimeUnit kTimeUnits[] = {TimeUnit::seconds, TimeUnit::minutes, TimeUnit::hours, TimeUnit::days,
                                   TimeUnit::years};

std::string unit_label(const std::string& time_unit) {
  return time_unit.empty() ? "the file's units" : time_unit;
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// Four significant digits: for scales and rates in running text.
std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

void print_data_summary(const EventLog& log, const EventSplit& split, const EventRunRequest& request) {
  const EventLogColumns& c = log.columns;
  std::printf("read %ld events in %zu sequence%s of %s: time %s (%s)", log.events(), log.sequences.size(),
              log.sequences.size() == 1 ? "" : "s", log.source.c_str(), quoted(c.time).c_str(),
              unit_label(log.time_unit).c_str());
  if (!c.sequence.empty()) std::printf(", sequences %s", quoted(c.sequence).c_str());
  if (!log.mark_names.empty())
    std::printf(", marks %s (%zu types)", quoted(c.mark).c_str(), log.mark_names.size());
  else if (!log.feature_name.empty())
    std::printf(", feature %s", quoted(log.feature_name).c_str());
  std::printf("\n");
  for (const std::string& warning : log.warnings) std::printf("note: %s\n", warning.c_str());
  const std::vector<EventSequence>* parts[] = {&split.train, &split.validation, &split.test};
  std::printf("split %s %s: scored events %ld / %ld / %ld; time scale (mean training gap) %s%s\n",
              split.method == EventSplitMethod::by_time ? "by time" : "by sequence",
              (format_number(request.split.train) + "/" + format_number(request.split.validation) + "/" +
               format_number(request.split.test))
                  .c_str(),
              scored_event_count(*parts[0]), scored_event_count(*parts[1]), scored_event_count(*parts[2]),
              short_number(split.train_mean_gap).c_str(),
              log.time_unit.empty() ? " in the file's units" : (" " + log.time_unit).c_str());
  std::fflush(stdout);
}

// The metrics of one or more models side by side, in the data's time unit.
void print_metrics_table(const std::vector<std::string>& names, const std::vector<EventEvalMetrics>& metrics,
                         const std::string& part, const std::string& time_unit, bool marked) {
  std::printf("%s metrics over %ld events (time in %s):\n", part.c_str(), metrics.front().events,
              unit_label(time_unit).c_str());
  std::printf("  %-24s", "");
  for (const std::string& name : names) std::printf("%14s", name.c_str());
  std::printf("\n");
  const auto row = [&](const char* label, double EventEvalMetrics::* field) {
    std::printf("  %-24s", label);
    for (const EventEvalMetrics& m : metrics) std::printf("%14s", table_cell(m.*field).c_str());
    std::printf("\n");
  };
  row("NLL/event", &EventEvalMetrics::nll_per_event);
  if (marked) {
    row("  time NLL/event", &EventEvalMetrics::time_nll_per_event);
    row("  mark NLL/event", &EventEvalMetrics::mark_nll_per_event);
  }
  row("RMSE of next time", &EventEvalMetrics::rmse);
  if (marked) row("mark accuracy", &EventEvalMetrics::accuracy);
}

std::string forecast_csv(const std::vector<SequenceForecast>& forecasts, const EventRunConfig& config) {
  const std::vector<std::string>& marks = config.data.mark_names;
  std::string csv = "sequence,event,time,next_time,predicted_next_time,nll,predicted_mark,p_actual_mark\n";
  for (const SequenceForecast& f : forecasts)
    for (const EventPrediction& p : f.events) {
      const bool marked = p.predicted_mark >= 0;
      csv += csv_field(f.id) + "," + std::to_string(p.index) + "," + format_number(p.time) + ",";
      csv += (p.has_actual ? format_number(p.actual_next_time) : "") + ",";
      csv += format_number(p.next.mean_next_time) + ",";
      csv += (p.has_actual ? format_number(p.time_nll + (marked ? p.mark_nll : 0.0)) : "") + ",";
      csv += (marked ? csv_field(marks[std::size_t(p.predicted_mark)]) : "") + ",";
      csv += (marked && p.has_actual ? format_number(p.actual_mark_probability) : "") + "\n";
    }
  return csv;
}

struct TrainEventsOptions {
  const CLI::App* app = nullptr;
  EventRunRequest request;
  std::string seq_col;
  std::string out, model = "aaren", mark_use = "auto", time_unit = "days", decimal_mark, split = "0.6,0.2,0.2";
  std::string schedule, device = "cpu";
};

int train_events(TrainEventsOptions& o) {
  require_cpu_device(o.device, cpu_only_reason(TrainingTaskKind::events));
  EventRunRequest& request = o.request;
  const std::vector<ModelKind> kinds = model_kinds(o.model);
  try {
    request.model.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (given(o.app, "--seq-col")) request.log.sequence_column = o.seq_col;
  request.log.mark_use = o.mark_use == "auto" ? MarkUse::automatic : enum_named(o.mark_use, kMarkUses);
  request.log.unit = enum_named(o.time_unit, kTimeUnits);
  request.log.decimal_mark = decimal_mark_of(o.decimal_mark);
  try {
    const SplitSpec split = parse_split_spec(o.split);
    if (split.method != SplitSpec::Method::fractions) throw UsageError("--split takes three fractions for an event log");
    request.split = split.fractions;
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--split: ") + e.what());
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
    request.on_data_read = [&](const EventLog& log, const EventSplit& split) {
      if (!summary_printed) print_data_summary(log, split, request);
      summary_printed = true;
    };
    request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
      std::printf("training %s event model -> %s, needing %s\n", name.c_str(), request.out_dir.c_str(),
                  describe(memory).c_str());
      std::fflush(stdout);
    };
    EventRunOutcome outcome = train_event_run(request, callbacks);
    std::printf("%s%s\n", terminal ? "\r\033[K" : "", outcome.metrics.message.c_str());
    return outcome;
  });
  std::vector<std::string> names;
  for (std::size_t i = 0; i < outcomes.size(); ++i) names.emplace_back(to_string(kinds[i]));

  const EventRunConfig& config = outcomes.front().config;
  const bool marked = config.model.marks > 0;
  std::vector<EventEvalMetrics> validation, test;
  for (const EventRunOutcome& o : outcomes) {
    validation.push_back(o.metrics.validation);
    test.push_back(o.metrics.test);
  }
  print_metrics_table(names, validation, "validation", config.data.time_unit, marked);
  print_metrics_table(names, test, "test", config.data.time_unit, marked);
  std::printf("Poisson process fitted to the training part (rate %s): time NLL/event %s on the same test events\n",
              short_number(outcomes.front().metrics.poisson_rate).c_str(),
              table_cell(outcomes.front().metrics.poisson_test_nll_per_event).c_str());
  print_run_folders(o.out, kinds, outcomes.size());
  return exit_code_of(outcomes);
}

struct ForecastEventsOptions {
  std::string run, data, out, true_process;
};

int forecast_events(const ForecastEventsOptions& o) {
  const std::string dir = single_model_run(o.run);
  std::optional<PointProcess> truth;
  if (!o.true_process.empty()) {
    truth = reference_process(o.true_process);
    if (!truth)
      throw UsageError("--true-process must be one of " + std::string(kReferenceProcessNames) + ", got '" +
                       o.true_process + "'");
  }
  const LoadedEventRun run = load_event_run(dir);
  const std::string data_path = o.data.empty() ? run.config.data.data_file : o.data;
  if (o.data.empty() && !fs::exists(data_path))
    throw UsageError("the run was trained on '" + data_path + "', which is not there now: give --data FILE");
  const EventRunData data = prepare_event_run_data(run.config, data_path);

  std::vector<SequenceForecast> forecasts;
  for (const EventSequence& sequence : data.split.test) forecasts.push_back(forecast_event_sequence(run, sequence));
  if (!o.out.empty()) {
    const std::string& out_path = o.out;
    write_file_atomically(out_path, forecast_csv(forecasts, run.config));
    long rows = 0;
    for (const SequenceForecast& f : forecasts) rows += long(f.events.size());
    std::printf("wrote %ld events of %zu test sequence%s to %s\n", rows, forecasts.size(),
                forecasts.size() == 1 ? "" : "s", out_path.c_str());
  }
  const EventModelConfig& model = run.config.model;
  const std::string& unit = run.config.data.time_unit;
  print_metrics_table({std::string(to_string(model.backbone.kind))}, {forecast_eval_metrics(forecasts, model)}, "test",
                      unit, model.marks > 0);
  const PoissonProcess poisson = fit_poisson(data.split.train);
  std::printf("Poisson process fitted to the training part (rate %s): time NLL/event %s\n",
              short_number(poisson.rate).c_str(), table_cell(scored_gap_nll(poisson, data.split.test)).c_str());
  if (truth)
    std::printf("true process %s: NLL/event %s over the same events\n", describe(*truth).c_str(),
                table_cell(scored_gap_nll(*truth, data.split.test)).c_str());
  return 0;
}

void add_train_events_command(CommandLine& cli) {
  auto o = std::make_shared<TrainEventsOptions>();
  CLI::App* app = cli.add_command(cli.root(), "train", train_description(kTrainEventsText), [o] { return train_events(*o); });
  o->app = app;
  EventRunRequest& r = o->request;
  add_task_option(app, cli.task());
  add_text(app, "--data", r.data_path, "FILE", "CSV with a header; the columns are detected unless named")
      ->required()->group(kDataGroup);
  add_text(app, "--out", o->out, "DIR", "the run folder")->required()->group(kDataGroup);
  add_text(app, "--time-col", r.log.time_column, "NAME", "event times: numbers, or date-times (see --time-unit)")
      ->group(kDataGroup);
  add_text(app, "--seq-col", o->seq_col, "NAME", "sequence ids ('' for one sequence)")
      ->group(kDataGroup);
  add_text(app, "--mark-col", r.log.mark_column, "NAME", "each event's mark")->group(kDataGroup);
  add_choice(app, "--mark-use", o->mark_use, {"auto", "categorical", "feature", "none"},
             "the mark as a type to predict, or a value to read (auto: whole numbers and text are types)")
      ->group(kDataGroup);
  add_choice(app, "--time-unit", o->time_unit, enum_names(kTimeUnits), "unit of date-time columns")->group(kDataGroup);
  add_decimal_mark_option(app, o->decimal_mark);
  add_text(app, "--split", o->split, "F,F,F", "train/validation/test fractions")->group(kDataGroup);
  add_model_choice(app, o->model, true);
  ModelConfig& b = r.model.backbone;
  b.seq_len = 64;
  CLI::Option* window =
      add_whole(app, "--window", b.seq_len, 2, 1 << 20, "N", "events per training window")->group(kModelGroup);
  CLI::Option* seq_len = add_whole(app, "--seq-len", b.seq_len, 2, 1 << 20, "N", "the same as --window")->group(kModelGroup);
  window->excludes(seq_len);
  refuse_option(app, "--horizon", "belongs to forecasting; an event model predicts the next event");
  add_architecture_options(app, b, {.seq_len = false, .horizon = false});
  add_whole(app, "--mixture", r.model.mixture_components, 1, 256, "K", "log-normal components of the next gap's density")
      ->group(kModelGroup);
  add_whole(app, "--time-frequencies", r.model.time_frequencies, 0, 30, "F", "sin/cos pairs of the time in a window")
      ->group(kModelGroup);
  add_training_options(app, r.train, o->schedule);
  add_device_option(app, o->device, "cpu or auto (event models train on the CPU)");
}

void add_forecast_events_command(CommandLine& cli) {
  auto o = std::make_shared<ForecastEventsOptions>();
  CLI::App* app = cli.add_command(cli.root(), "forecast", forecast_description(kForecastEventsText),
                                  [o] { return forecast_events(*o); });
  add_task_option(app, cli.task());
  add_text(app, "--run", o->run, "DIR", "the event-model run folder")->required()->group(kDataGroup);
  add_text(app, "--data", o->data, "FILE", "the log (default: the file the run was trained on)")->group(kDataGroup);
  add_text(app, "--out", o->out, "FILE.csv", "one row per event of the test sequences")->group(kDataGroup);
  add_text(app, "--true-process", o->true_process, "NAME",
           "the process that generated a reference log: " + std::string(kReferenceProcessNames))
      ->group(kOptionsGroup);
}

}  // namespace

void add_event_commands(CommandLine& cli) {
  add_train_events_command(cli);
  add_forecast_events_command(cli);
}

}  // namespace aaren::cli
