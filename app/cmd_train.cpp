// aaren train / aaren forecast: the forecasting workflow on a CSV file.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/classify_commands.hpp"
#include "app/events_commands.hpp"
#include "app/model_options.hpp"
#include "app/train_cli.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/runs/run_catalog.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_run.hpp"
#include "gpu/forecast_device.hpp"

namespace aaren::cli {

namespace {

const char* const kTrainHelp = R"(usage: aaren train --data FILE --model aaren|transformer|both --out DIR [options]
       aaren train --task events ...  (an event-model run: 'aaren train --task events --help')
       aaren train --task classify ...  (a classifier: 'aaren train --task classify --help')

Trains a forecasting model on a CSV time series and writes a run folder:
DIR/config.json, DIR/model.safetensors (the best weights, rewritten as validation
improves), DIR/metrics.json (per-epoch losses; test MSE and MAE on scaled data
and in the data's units, beside the naive baselines) and DIR/loss.csv. Ctrl+C stops cleanly and keeps the best weights; even a killed
run leaves its best model so far loadable, since every file is replaced whole.
With --model both, the two models train one after the other on the same data,
split and seed into DIR/aaren and DIR/transformer, compared side by side.
Training is refused up front, with the estimate, when the memory it needs is more
than the machine has.

Data:
  --data FILE                 CSV with a header; a date column is detected
  --columns A,B,...           channels to use (default: every numeric column)
  --target NAME               the channel of interest (must be among the channels)
  --features M|S|MS           what the model reads and forecasts (default M): M every
                              channel predicts every channel; S the target alone
                              predicts itself; MS every channel predicts the target.
                              S and MS need --target; MS trains on the CPU only
  --date-column NAME          override the detected date column ('' for none)
  --decimal-mark .|,          override the detected decimal mark (',' for 1,5 as
                              Excel writes it in German, French, Spanish or Italian)
  --interpolate               fill missing values linearly (default: report them)
  --split 0.7,0.1,0.2|ett     chronological split (ett: 12/4/4 months)
  --seasonal-period N         the seasonal naive baseline's period in rows (default:
                              from the dates, 12 monthly, 4 quarterly, 7 daily, 24
                              hourly, else the training rows' autocorrelation)
Model:
  --model aaren|transformer|both  the token mixer; both: the two side by side
)";

const char* const kForecastHelp = R"(usage: aaren forecast --run DIR --data FILE [--window K | --last] --out FILE.csv
                      [--test-metrics [--seasonal-period N]] [--device cpu|cuda|auto]
       aaren forecast --task events ...  (an event-model run: 'aaren forecast --task events --help')
       aaren forecast --task classify ...  (a classifier: 'aaren forecast --task classify --help')

Loads a run folder and forecasts the horizon after one look-back window, in the
data's original units. --window K takes test window K (0-based, in time order)
and writes the truth beside the forecast; --last (the default) forecasts past the
end of the file, with dates that continue the file's own (monthly, quarterly,
daily, hourly, decimal years; row numbers where it has none). The CSV has the
columns date, step, channel, forecast, truth.
The run's features decide the channels written: every channel (M, S) or the
target alone (MS).
--test-metrics also forecasts every test window and prints their MSE and MAE on
scaled data (as metrics.json reports them) and in the data's units, overall and
per channel, beside two naive baselines on the same windows: the last value
repeated and the seasonal naive (the value one period earlier; --seasonal-period
N sets the period, else the one given at training or found from the data). On a
GPU, many windows at a time.
)";

// Test windows forecast at once on a GPU.
constexpr int kDeviceForecastBatch = 64;

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

// --features M|S|MS: a value outside them, or S and MS without --target, is a usage error.
ForecastFeatures features_option(const Args& args, const std::string& target) {
  const std::string text = args.text("features", "M");
  const std::optional<ForecastFeatures> features = forecast_features_from_string(text);
  if (!features) throw UsageError("--features must be " + std::string(kForecastFeaturesNames) + ", not '" + text + "'");
  if (needs_target(*features) && target.empty())
    throw UsageError("--features " + text + " forecasts the target" +
                     (*features == ForecastFeatures::S ? " from its own past alone" : " from every channel") +
                     ": name it with --target NAME");
  return *features;
}

std::optional<int> seasonal_period_option(const Args& args) {
  if (!args.has("seasonal-period")) return std::nullopt;
  return int(args.integer("seasonal-period", 1, 1, 1 << 20));
}

// One row of the comparison: a forecaster's MSE and MAE, scaled and in the data's units, overall
// (channel -1) or of one channel.
void print_comparison_row(const std::string& label, const UnitMetrics& m, int channel) {
  const auto pick = [channel](const EvalMetrics& e, double EvalMetrics::* overall, std::vector<double> EvalMetrics::* each) {
    return channel < 0 ? e.*overall : (e.*each)[std::size_t(channel)];
  };
  std::printf("  %-22s %12.6g %12.6g %14.6g %14.6g\n", label.c_str(),
              pick(m.scaled, &EvalMetrics::mse, &EvalMetrics::channel_mse),
              pick(m.scaled, &EvalMetrics::mae, &EvalMetrics::channel_mae),
              pick(m.original, &EvalMetrics::mse, &EvalMetrics::channel_mse),
              pick(m.original, &EvalMetrics::mae, &EvalMetrics::channel_mae));
}

// The model against the naive baselines on the test windows, overall and (for several channels)
// per channel.
void print_test_comparison(const TestComparison& c, const std::string& model, const std::vector<std::string>& channels) {
  const std::string seasonal =
      c.seasonal_naive ? "seasonal naive (" + std::to_string(c.period.length) + ")" : std::string();
  std::printf("test windows: %ld; seasonal naive: %s\n", c.model.scaled.windows, c.period.note.c_str());
  std::printf("  %-22s %12s %12s %14s %14s\n", "", "scaled MSE", "scaled MAE", "original MSE", "original MAE");
  const auto block = [&](const std::string& title, int channel) {
    std::printf("%s\n", title.c_str());
    print_comparison_row(model, c.model, channel);
    print_comparison_row("last value", c.last_value, channel);
    if (c.seasonal_naive) print_comparison_row(seasonal, *c.seasonal_naive, channel);
  };
  block(channels.size() == 1 ? channels[0] : "all channels (original units: the mean over them)", -1);
  if (channels.size() > 1)
    for (std::size_t i = 0; i < channels.size(); ++i) block(channels[i], int(i));
}

void print_reading_progress(double fraction) {
  std::printf("\r\033[Kreading the data: %3.0f%%", 100.0 * fraction);
  std::fflush(stdout);
}

}  // namespace

int run_train(const Arguments& arguments) {
  if (task_of(arguments) == Task::events) return run_train_events(arguments);
  if (task_of(arguments) == Task::classify) return run_train_classify(arguments);
  std::set<std::string> options = kModelOptions;
  options.insert(kTrainSettingsOptions.begin(), kTrainSettingsOptions.end());
  options.insert({"task", "data", "columns", "target", "features", "date-column", "decimal-mark", "split", "out",
                  "seasonal-period"});
  const Args args(arguments, options, {"interpolate"}, "aaren train");
  if (args.print_help(kTrainHelp, architecture_options_help(), kTrainSettingsHelp)) return 0;
  ForecastRunRequest request;
  request.data_path = args.required("data");
  const std::string out = args.required("out");
  if (!args.has("model")) throw UsageError("'aaren train' needs --model aaren, --model transformer or --model both");
  const std::vector<ModelKind> kinds = model_kinds_from(args);
  request.model = model_config_from(args, 1, kinds.front());
  request.csv.columns = split_names(args.text("columns", ""));
  request.csv.target = args.text("target", "");
  request.data.features = features_option(args, request.csv.target);
  if (args.has("date-column")) request.csv.date_column = args.text("date-column", "");
  request.csv.decimal_mark = args.decimal_mark();
  if (args.flag("interpolate")) request.csv.missing = CsvReadOptions::Missing::interpolate;
  try {
    request.data.split = parse_split_spec(args.text("split", "0.7,0.1,0.2"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--split: ") + e.what());
  }
  request.data.seq_len = request.model.seq_len;
  request.data.horizon = request.model.horizon;
  request.train = train_settings_from(args);
  request.seasonal_period = seasonal_period_option(args);
  if (request.data.features == ForecastFeatures::MS)
    require_cpu_device(args.text("device", "cpu"), cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS));
  const ComputeDevice device =
      request.data.features == ForecastFeatures::MS ? ComputeDevice::cpu : choose_device(args.text("device", "cpu"));
  if (device == ComputeDevice::cuda) request.engine = gpu::make_forecast_engine;

  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const bool terminal = ::isatty(STDOUT_FILENO);
  request.csv.cancel = &g_interrupted;
  if (terminal) request.csv.progress = print_reading_progress;
  request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
    std::printf("%straining %s on %s -> %s, needing %s\ndevice: %s\n", terminal ? "\r\033[K" : "",
                std::string(to_string(request.model.kind)).c_str(), request.data_path.c_str(),
                request.out_dir.c_str(), describe(memory).c_str(), describe_device(device).c_str());
    std::fflush(stdout);
  };
  TrainCallbacks callbacks;
  callbacks.cancel = &g_interrupted;
  callbacks.progress = [terminal](const TrainProgress& p) { print_train_progress(p, terminal); };
  // Both models on the same data, split and seed, one after the other, as --task events and
  // --task classify train them (docs/DESIGN.md section 9, "Side by side").
  bool diverged = false;
  for (const ModelKind kind : kinds) {
    request.model.kind = kind;
    request.out_dir = kinds.size() > 1 ? side_by_side_model_dir(out, kind) : out;
    const ForecastRunOutcome outcome = train_forecast_run(request, callbacks);
    const ForecastRunMetrics& m = outcome.metrics;
    std::printf("%s%s (trained on %s)\n", terminal ? "\r\033[K" : "", m.message.c_str(), m.device.c_str());
    if (kind == kinds.front())  // the data's, the same for every model
      for (const std::string& warning : outcome.warnings) std::printf("warning: %s\n", warning.c_str());
    std::printf("validation MSE %.4f MAE %.4f | test MSE %.4f MAE %.4f (scaled data, %ld test windows)\n",
                m.validation.mse, m.validation.mae, m.test.mse, m.test.mae, m.test.windows);
    if (m.test_comparison)
      print_test_comparison(*m.test_comparison, std::string(to_string(kind)), outcome.config.forecast_channels());
    diverged = diverged || m.stop == "diverged";
    if (g_interrupted.load()) break;
  }
  if (kinds.size() > 1)
    std::printf("run folders: %s (%s/, %s/)\n", out.c_str(), std::string(to_string(kinds.front())).c_str(),
                std::string(to_string(kinds.back())).c_str());
  else
    std::printf("run folder: %s\n", out.c_str());
  return diverged ? 1 : 0;
}

int run_forecast(const Arguments& arguments) {
  if (task_of(arguments) == Task::events) return run_forecast_events(arguments);
  if (task_of(arguments) == Task::classify) return run_forecast_classify(arguments);
  const Args args(arguments, {"task", "run", "data", "window", "out", "device", "seasonal-period"},
                  {"last", "test-metrics"}, "aaren forecast");
  if (args.print_help(kForecastHelp, kDeviceOptionHelp)) return 0;
  if (args.has("window") && args.flag("last")) throw UsageError("give either --window K or --last, not both");
  if (args.has("seasonal-period") && !args.flag("test-metrics"))
    throw UsageError("--seasonal-period sets the baseline of --test-metrics; give both");
  ComputeDevice device = choose_device(args.text("device", "cpu"));
  const LoadedForecastRun run = load_forecast_run(single_model_run(args.required("run")));
  if (run.config.model.target_channel >= 0) {  // features MS
    require_cpu_device(args.text("device", "cpu"), cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS));
    device = ComputeDevice::cpu;
  }
  const std::string out_path = args.required("out");
  const ForecastData data = prepare_run_data(run.config, args.required("data"));
  const bool test_metrics = args.flag("test-metrics");
  std::unique_ptr<gpu::DeviceForecastModel> device_model;
  BatchForecaster forecaster;
  if (device == ComputeDevice::cuda) {
    device_model =
        std::make_unique<gpu::DeviceForecastModel>(run.config.model, test_metrics ? kDeviceForecastBatch : 1);
    device_model->set_params(run.params.data());
    forecaster = [&device_model](float* y, const float* x, int batch) { device_model->forecast(y, x, batch); };
  }
  const WindowForecast f =
      args.has("window") ? forecast_test_window(run, data, int(args.integer("window", 0, 0, 1 << 30)), forecaster)
                         : forecast_after_end(run, data, forecaster);
  std::string csv = "date,step,channel,forecast,truth\n";
  for (int h = 0; h < f.forecast.rows; ++h)
    for (int c = 0; c < f.forecast.cols; ++c) {
      csv += f.dates[std::size_t(h)] + "," + std::to_string(h + 1) + "," + f.channels[std::size_t(c)] + "," +
             format_number(float(f.forecast(h, c))) + "," + (f.truth.rows ? format_number(f.truth(h, c)) : "") + "\n";
    }
  write_file_atomically(out_path, csv);
  std::printf("wrote %d steps x %d channels to %s\n", f.forecast.rows, f.forecast.cols, out_path.c_str());
  if (test_metrics) {
    // A period given at training stays the run's unless another is given now.
    std::optional<int> period = seasonal_period_option(args);
    const std::optional<TestComparison>& stored = run.metrics.test_comparison;
    if (!period && stored && stored->period.source == "given") period = stored->period.length;
    const TestComparison comparison =
        evaluate_against_baselines(run, data, seasonal_period_of(data, period), forecaster, kDeviceForecastBatch);
    const EvalMetrics& test = comparison.model.scaled;
    std::printf("test MSE %.4f MAE %.4f (scaled data, %ld test windows, on %s)\n", test.mse, test.mae, test.windows,
                describe_device(device).c_str());
    print_test_comparison(comparison, std::string(to_string(run.config.model.kind)), run.config.forecast_channels());
  }
  return 0;
}

}  // namespace aaren::cli
