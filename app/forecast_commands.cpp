// aaren train / aaren forecast for --task forecast (the default): forecasting on a CSV time series.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/train_cli.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/runs/run_catalog.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_run.hpp"
#include "gpu/forecast_device.hpp"

namespace aaren::cli {

namespace {

const char* const kTrainText = R"(Trains a forecasting model on a CSV time series and writes a run folder:
DIR/config.json, DIR/model.safetensors (the best weights, rewritten as validation
improves), DIR/metrics.json (per-epoch losses; test MSE and MAE on scaled data
and in the data's units, beside the naive baselines) and DIR/loss.csv. Ctrl+C
stops cleanly and keeps the best weights; even a killed run leaves its best
model so far loadable, since every file is replaced whole. With --model both,
the two models train one after the other on the same data, split and seed into
DIR/aaren and DIR/transformer, compared side by side; --model all adds the
linear Transformer in DIR/linear (it trains on the CPU). Training is refused up
front, with the estimate, when the memory it needs is more than the machine has.
Other tasks: 'aaren train --task events --help', 'aaren train --task classify --help'.)";

const char* const kForecastText = R"(Loads a run folder and forecasts the horizon after one look-back window, in the
data's original units. --window K takes test window K (0-based, in time order)
and writes the truth beside the forecast; --last (the default) forecasts past the
end of the file, with dates that continue the file's own (monthly, quarterly,
daily, hourly, decimal years; row numbers where it has none). The CSV has the
columns date, step, channel, forecast, truth. The run's features decide the
channels written: every channel (M, S) or the target alone (MS).
--test-metrics also forecasts every test window and prints their MSE and MAE on
scaled data (as metrics.json reports them) and in the data's units, overall and
per channel, beside two naive baselines on the same windows: the last value
repeated and the seasonal naive (the value one period earlier). On a GPU, many
windows at a time.
Other tasks: 'aaren forecast --task events --help', 'aaren forecast --task classify --help'.)";

// Test windows forecast at once on a GPU.
constexpr int kDeviceForecastBatch = 64;

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

// S and MS without --target are a usage error.
ForecastFeatures features_of(const std::string& text, const std::string& target) {
  const ForecastFeatures features = *forecast_features_from_string(text);
  if (needs_target(features) && target.empty())
    throw UsageError("--features " + text + " forecasts the target" +
                     (features == ForecastFeatures::S ? " from its own past alone" : " from every channel") +
                     ": name it with --target NAME");
  return features;
}

const char* const kSeasonalPeriodHelp =
    "the seasonal naive baseline's period in rows (default: from the dates, 12 monthly, 4 quarterly, 7 daily, "
    "24 hourly, else the training rows' autocorrelation)";

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

struct TrainForecasterOptions {
  const CLI::App* app = nullptr;
  ForecastRunRequest request;
  std::string out, model, columns, features = "M", date_column, decimal_mark, split = "0.7,0.1,0.2", schedule;
  std::string device = "cpu";
  bool interpolate = false;
  int seasonal_period = 1;
};

int train_forecaster(TrainForecasterOptions& o) {
  const CLI::App* app = o.app;
  ForecastRunRequest& request = o.request;
  const std::vector<ModelKind> kinds = model_kinds(o.model);
  request.model.kind = kinds.front();
  validate_architecture(request.model);
  request.csv.columns = split_names(o.columns);
  request.data.features = features_of(o.features, request.csv.target);
  if (given(app, "--date-column")) request.csv.date_column = o.date_column;
  request.csv.decimal_mark = decimal_mark_of(o.decimal_mark);
  if (o.interpolate) request.csv.missing = CsvReadOptions::Missing::interpolate;
  try {
    request.data.split = parse_split_spec(o.split);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--split: ") + e.what());
  }
  request.data.seq_len = request.model.seq_len;
  request.data.horizon = request.model.horizon;
  request.train.schedule = schedule_from(o.schedule);
  if (given(app, "--seasonal-period")) request.seasonal_period = o.seasonal_period;
  if (request.data.features == ForecastFeatures::MS)
    require_cpu_device(o.device, cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS));
  for (const ModelKind kind : kinds)
    if (const std::string reason = cpu_only_reason(kind); !reason.empty()) require_cpu_device(o.device, reason);
  const ComputeDevice chosen =
      request.data.features == ForecastFeatures::MS ? ComputeDevice::cpu : choose_device(o.device);
  ComputeDevice device = chosen;  // the model's: with --device auto, a CPU-only model trains on the CPU

  std::atomic<bool>& interrupted = install_interrupt_handler();
  const bool terminal = ::isatty(STDOUT_FILENO);
  request.csv.cancel = &interrupted;
  if (terminal) request.csv.progress = print_reading_progress;
  request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
    std::printf("%straining %s on %s -> %s, needing %s\ndevice: %s\n", terminal ? "\r\033[K" : "",
                std::string(to_string(request.model.kind)).c_str(), request.data_path.c_str(),
                request.out_dir.c_str(), describe(memory).c_str(), describe_device(device).c_str());
    std::fflush(stdout);
  };
  TrainCallbacks callbacks;
  callbacks.cancel = &interrupted;
  callbacks.progress = [terminal](const TrainProgress& p) { print_train_progress(p, terminal); };
  const auto outcomes = train_side_by_side(kinds, o.out, interrupted, [&](ModelKind kind, const std::string& dir) {
    request.model.kind = kind;
    request.out_dir = dir;
    device = device_for(kind, chosen);
    request.engine = device == ComputeDevice::cuda ? gpu::make_forecast_engine : ForecastEngineFactory{};
    const ForecastRunOutcome outcome = train_forecast_run(request, callbacks);
    const ForecastRunMetrics& m = outcome.metrics;
    std::printf("%s%s (trained on %s)\n", terminal ? "\r\033[K" : "", m.message.c_str(), m.device.c_str());
    if (kind == kinds.front())  // the data's, the same for every model
      for (const std::string& warning : outcome.warnings) std::printf("warning: %s\n", warning.c_str());
    std::printf("validation MSE %.4f MAE %.4f | test MSE %.4f MAE %.4f (scaled data, %ld test windows)\n",
                m.validation.mse, m.validation.mae, m.test.mse, m.test.mae, m.test.windows);
    if (m.test_comparison)
      print_test_comparison(*m.test_comparison, std::string(to_string(kind)), outcome.config.forecast_channels());
    return outcome;
  });
  print_run_folders(o.out, kinds, outcomes.size());
  return exit_code_of(outcomes);
}

void add_train_command(CommandLine& cli) {
  auto o = std::make_shared<TrainForecasterOptions>();
  CLI::App* app =
      cli.add_command(cli.root(), "train", train_description(kTrainText), [o] { return train_forecaster(*o); });
  o->app = app;
  ForecastRunRequest& r = o->request;
  add_task_option(app, cli.task());
  add_text(app, "--data", r.data_path, "FILE", "CSV with a header; a date column is detected")
      ->required()->group(kDataGroup);
  add_text(app, "--out", o->out, "DIR", "the run folder")->required()->group(kDataGroup);
  add_text(app, "--columns", o->columns, "A,B,...", "channels to use (default: every numeric column)")->group(kDataGroup);
  add_text(app, "--target", r.csv.target, "NAME", "the channel of interest (must be among the channels)")
      ->group(kDataGroup);
  add_choice(app, "--features", o->features, {"M", "S", "MS"},
             "what the model reads and forecasts: M every channel predicts every channel; S the target alone "
             "predicts itself; MS every channel predicts the target. S and MS need --target; MS trains on the CPU "
             "only")
      ->group(kDataGroup);
  add_text(app, "--date-column", o->date_column, "NAME", "override the detected date column ('' for none)")
      ->group(kDataGroup);
  add_decimal_mark_option(app, o->decimal_mark);
  add_switch(app, "--interpolate", o->interpolate, "fill missing values linearly (default: report them)")
      ->group(kDataGroup);
  add_text(app, "--split", o->split, "0.7,0.1,0.2|ett", "chronological split (ett: 12/4/4 months)")->group(kDataGroup);
  add_whole(app, "--seasonal-period", o->seasonal_period, 1, 1 << 20, "N", kSeasonalPeriodHelp)->group(kDataGroup);
  add_model_choice(app, o->model, true)->required();
  add_architecture_options(app, r.model);
  add_training_options(app, r.train, o->schedule);
  add_device_option(app, o->device,
                    "where the training steps run; auto: the GPU where one can be used, else the CPU; evaluation "
                    "runs on the CPU");
}
struct ForecastOptions {
  const CLI::App* app = nullptr;
  std::string run, data, out, device = "cpu";
  int window = 0;
  bool last = false, test_metrics = false;
  int seasonal_period = 1;
};

int forecast(const ForecastOptions& o) {
  if (given(o.app, "--seasonal-period") && !o.test_metrics)
    throw UsageError("--seasonal-period sets the baseline of --test-metrics; give both");
  ComputeDevice device = choose_device(o.device);
  const LoadedForecastRun run = load_forecast_run(single_model_run(o.run));
  if (run.config.model.target_channel >= 0) {  // features MS
    require_cpu_device(o.device, cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS));
    device = ComputeDevice::cpu;
  }
  const std::string& out_path = o.out;
  const ForecastData data = prepare_run_data(run.config, o.data);
  const bool test_metrics = o.test_metrics;
  std::unique_ptr<gpu::DeviceForecastModel> device_model;
  BatchForecaster forecaster;
  if (device == ComputeDevice::cuda) {
    device_model =
        std::make_unique<gpu::DeviceForecastModel>(run.config.model, test_metrics ? kDeviceForecastBatch : 1);
    device_model->set_params(run.params.data());
    forecaster = [&device_model](float* y, const float* x, int batch) { device_model->forecast(y, x, batch); };
  }
  const WindowForecast f =
      given(o.app, "--window") ? forecast_test_window(run, data, o.window, forecaster)
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
    std::optional<int> period;
    if (given(o.app, "--seasonal-period")) period = o.seasonal_period;
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

void add_forecast_command(CommandLine& cli) {
  auto o = std::make_shared<ForecastOptions>();
  CLI::App* app =
      cli.add_command(cli.root(), "forecast", forecast_description(kForecastText), [o] { return forecast(*o); });
  o->app = app;
  add_task_option(app, cli.task());
  add_text(app, "--run", o->run, "DIR", "the run folder")->required()->group(kDataGroup);
  add_text(app, "--data", o->data, "FILE", "the CSV the run was trained on, or one like it")->required()->group(kDataGroup);
  add_text(app, "--out", o->out, "FILE.csv", "the forecast")->required()->group(kDataGroup);
  CLI::Option* window = add_whole(app, "--window", o->window, 0, 1 << 30, "K",
                                  "forecast test window K (0-based, in time order), with the truth beside it")
                            ->group(kOptionsGroup);
  CLI::Option* last = add_switch(app, "--last", o->last, "forecast past the end of the file (the default)")
                          ->group(kOptionsGroup);
  window->excludes(last);
  add_switch(app, "--test-metrics", o->test_metrics,
             "also forecast every test window and compare with the naive baselines")
      ->group(kOptionsGroup);
  add_whole(app, "--seasonal-period", o->seasonal_period, 1, 1 << 20, "N",
            "with --test-metrics: the seasonal naive baseline's period (default: the one given at training, else "
            "found from the data)")
      ->group(kOptionsGroup);
  add_device_option(app, o->device, "where the forecasts run; auto: the GPU where one can be used, else the CPU");
}

}  // namespace

void add_forecasting_commands(CommandLine& cli) {
  add_train_command(cli);
  add_forecast_command(cli);
}

}  // namespace aaren::cli
