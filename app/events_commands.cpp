// aaren train --task events / aaren forecast --task events: the event-model workflow on a CSV log.
#include "app/events_commands.hpp"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/cli_args.hpp"
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

const char* const kTrainEventsHelp = R"(usage: aaren train --task events --data FILE --out DIR [--model aaren|transformer|both] [options]

Trains a temporal point process on an event log: a CSV file of event times,
optionally grouped into sequences and marked with a type or a measured value. The
model predicts the time of the next event (a mixture of log-normals over the gap)
and its mark. Writes a run folder: DIR/config.json, DIR/model.safetensors (the
best weights, rewritten as validation improves), DIR/metrics.json (per-epoch
losses; validation and test NLL per event, RMSE of the next time, mark accuracy,
and the NLL of a Poisson process fitted to the training part) and DIR/loss.csv.
With --model both, DIR/aaren and DIR/transformer, compared side by side.

The log is split by whole sequences (or by time when it is one sequence). Each
sequence is cut into windows of --window events that share one event with the
next, so every event but a sequence's first is predicted exactly once; NLL per
event is the density per unit of the data's time (the time unit is printed).

Data:
  --data FILE                 CSV with a header; the columns are detected unless named
  --time-col NAME             event times: numbers, or date-times (see --time-unit)
  --seq-col NAME              sequence ids ('' for one sequence)
  --mark-col NAME             each event's mark
  --mark-use auto|categorical|feature|none
                              the mark as a type to predict, or a value to read
                              (default auto: whole numbers and text are types)
  --time-unit seconds|minutes|hours|days|years
                              unit of date-time columns (default days)
  --decimal-mark .|,          override the detected decimal mark
  --split 0.6,0.2,0.2         train/validation/test fractions
Model:
  --model aaren|transformer|both  the token mixer (default aaren)
  --window N                  events per training window (default 64; --seq-len is the same)
  --d-model D                 width (default 64)
  --heads N                   attention heads, dividing d-model (default 4)
  --layers L                  blocks (default 2)
  --d-ff F                    hidden width of the feed-forward layer (default 256)
  --mixture K                 log-normal components of the next gap's density (default 8)
  --time-frequencies F        sin/cos pairs of the time in a window (default 8)
)";

const char* const kForecastEventsHelp = R"(usage: aaren forecast --task events --run DIR [--data FILE] [--out FILE.csv] [--true-process NAME]

Loads an event-model run folder and steps its model through every sequence of the
test part of the log (--data, default: the file it was trained on), predicting
each next event as the run's windows do. Prints the test metrics (NLL per event,
RMSE of the next time, mark accuracy) beside a Poisson process fitted to the
training part and, with --true-process hawkes1|poisson, the process that generated
a reference log, all over the same events. --out writes one row per event:
sequence, event, time, next_time, predicted_next_time (the mean of the predicted
density), nll (of the actual next event), predicted_mark, p_actual_mark.
)";

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt_of_event_training(int) { g_interrupted.store(true); }

template <class Enum, std::size_t N>
Enum enum_option(const Args& args, const std::string& name, Enum fallback, const Enum (&values)[N]) {
  if (!args.has(name)) return fallback;
  const std::string text = args.text(name, "");
  std::string allowed;
  for (const Enum value : values) {
    if (text == to_string(value)) return value;
    allowed += (allowed.empty() ? "" : "|") + std::string(to_string(value));
  }
  throw UsageError("--" + name + " must be " + allowed + ", got '" + text + "'");
}

constexpr MarkUse kMarkUses[] = {MarkUse::automatic, MarkUse::categorical, MarkUse::feature, MarkUse::none};
constexpr TimeUnit kTimeUnits[] = {TimeUnit::seconds, TimeUnit::minutes, TimeUnit::hours, TimeUnit::days,
                                   TimeUnit::years};

MarkUse mark_use_from(const Args& args) {
  if (args.text("mark-use", "") == "auto") return MarkUse::automatic;
  return enum_option(args, "mark-use", MarkUse::automatic, kMarkUses);
}

EventModelConfig event_model_from(const Args& args) {
  if (args.has("horizon")) throw UsageError("--horizon belongs to forecasting; an event model predicts the next event");
  if (args.has("window") && args.has("seq-len")) throw UsageError("give --window or --seq-len (the same), not both");
  EventModelConfig c;
  ModelConfig& b = c.backbone;
  b.seq_len = int(args.integer(args.has("seq-len") ? "seq-len" : "window", 64, 2, 1 << 20));
  b.d_model = int(args.integer("d-model", b.d_model, 1, 8192));
  b.heads = int(args.integer("heads", b.heads, 1, 1024));
  b.layers = int(args.integer("layers", b.layers, 1, 256));
  b.d_ff = int(args.integer("d-ff", b.d_ff, 1, 65536));
  c.mixture_components = int(args.integer("mixture", c.mixture_components, 1, 256));
  c.time_frequencies = int(args.integer("time-frequencies", c.time_frequencies, 0, 30));
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return c;
}

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

}  // namespace

Task task_of(const Arguments& arguments) {
  std::string task = "forecast";
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "--task") {
      if (i + 1 >= arguments.size()) throw UsageError("option --task needs a value");
      task = arguments[++i];
    } else if (argument.rfind("--task=", 0) == 0) {
      task = argument.substr(7);
    }
  }
  if (task == "forecast") return Task::forecast;
  if (task == "events") return Task::events;
  if (task == "classify") return Task::classify;
  throw UsageError("--task must be forecast, events or classify, got '" + task + "'");
}

int run_train_events(const Arguments& arguments) {
  std::set<std::string> options = {"task", "data",   "out",    "time-col", "seq-col", "mark-col", "mark-use",
                                   "time-unit", "split", "model", "window", "seq-len", "horizon", "d-model",
                                   "heads", "layers", "d-ff", "mixture", "time-frequencies", "decimal-mark"};
  options.insert(kTrainSettingsOptions.begin(), kTrainSettingsOptions.end());
  const Args args(arguments, options, {}, "aaren train --task events");
  if (args.print_help(kTrainEventsHelp, kTrainSettingsHelp)) return 0;
  require_cpu_device(args.text("device", "cpu"), cpu_only_reason(TrainingTaskKind::events));
  EventRunRequest request;
  request.data_path = args.required("data");
  const std::string out = args.required("out");
  const std::vector<ModelKind> kinds = model_kinds_from(args);
  request.model = event_model_from(args);
  request.log.time_column = args.text("time-col", "");
  if (args.has("seq-col")) request.log.sequence_column = args.text("seq-col", "");
  request.log.mark_column = args.text("mark-col", "");
  request.log.mark_use = mark_use_from(args);
  request.log.unit = enum_option(args, "time-unit", TimeUnit::days, kTimeUnits);
  request.log.decimal_mark = args.decimal_mark();
  try {
    const SplitSpec split = parse_split_spec(args.text("split", "0.6,0.2,0.2"));
    if (split.method != SplitSpec::Method::fractions) throw UsageError("--split takes three fractions for an event log");
    request.split = split.fractions;
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--split: ") + e.what());
  }
  request.train = train_settings_from(args);

  std::signal(SIGINT, on_interrupt_of_event_training);
  std::signal(SIGTERM, on_interrupt_of_event_training);
  const bool terminal = ::isatty(STDOUT_FILENO);
  TrainCallbacks callbacks;
  callbacks.cancel = &g_interrupted;
  callbacks.progress = [terminal](const TrainProgress& p) { print_train_progress(p, terminal); };

  std::vector<std::string> names;
  std::vector<EventRunOutcome> outcomes;
  bool diverged = false;
  for (const ModelKind kind : kinds) {
    const std::string name(to_string(kind));
    request.model.backbone.kind = kind;
    request.out_dir = kinds.size() > 1 ? side_by_side_model_dir(out, kind) : out;
    request.on_data_read = [&](const EventLog& log, const EventSplit& split) {
      if (outcomes.empty()) print_data_summary(log, split, request);
    };
    request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
      std::printf("training %s event model -> %s, needing %s\n", name.c_str(), request.out_dir.c_str(),
                  describe(memory).c_str());
      std::fflush(stdout);
    };
    outcomes.push_back(train_event_run(request, callbacks));
    names.push_back(name);
    const EventRunMetrics& m = outcomes.back().metrics;
    std::printf("%s%s\n", terminal ? "\r\033[K" : "", m.message.c_str());
    diverged = diverged || m.stop == "diverged";
    if (g_interrupted.load()) break;
  }

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
  std::printf("run folder%s: %s\n", outcomes.size() > 1 ? "s" : "",
              outcomes.size() > 1 ? (out + " (" + names.front() + "/, " + names.back() + "/)").c_str() : out.c_str());
  return diverged ? 1 : 0;
}

int run_forecast_events(const Arguments& arguments) {
  const Args args(arguments, {"task", "run", "data", "out", "true-process"}, {}, "aaren forecast --task events");
  if (args.print_help(kForecastEventsHelp)) return 0;
  const std::string dir = single_model_run(args.required("run"));
  std::optional<PointProcess> truth;
  if (args.has("true-process")) {
    truth = reference_process(args.text("true-process", ""));
    if (!truth)
      throw UsageError("--true-process must be one of " + std::string(kReferenceProcessNames) + ", got '" +
                       args.text("true-process", "") + "'");
  }
  const LoadedEventRun run = load_event_run(dir);
  const std::string data_path = args.text("data", run.config.data.data_file);
  if (!args.has("data") && !fs::exists(data_path))
    throw UsageError("the run was trained on '" + data_path + "', which is not there now: give --data FILE");
  const EventRunData data = prepare_event_run_data(run.config, data_path);

  std::vector<SequenceForecast> forecasts;
  for (const EventSequence& sequence : data.split.test) forecasts.push_back(forecast_event_sequence(run, sequence));
  if (args.has("out")) {
    const std::string out_path = args.text("out", "");
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

}  // namespace aaren::cli
