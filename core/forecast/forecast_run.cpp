#include "core/forecast/forecast_run.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>

#include "core/data/date_continuation.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_task.hpp"
#include "core/forecast/forecast_windows.hpp"
#include "core/train/cpu_only_models.hpp"
#include "core/train/run_steps.hpp"
#include "core/train/train_with_checkpoints.hpp"

namespace aaren {

ForecastRunOutcome train_forecast_run(const ForecastRunRequest& request, const TrainCallbacks& callbacks) {
  const ForecastFeatures features = request.data.features;
  require_target_for(features, request.csv.target);
  if (request.engine) require_trainable_on(ComputeDevice::cuda, TrainingTaskKind::forecast, features);
  ForecastRunOutcome outcome;
  ForecastRunConfig& config = outcome.config;
  ForecastRunMetrics& metrics = outcome.metrics;
  std::optional<ForecastData> data;
  std::optional<ForecastWindows> train_set, val_set, test_set;
  std::optional<SeasonalPeriod> period;
  std::unique_ptr<StepEngine> engine;
  std::optional<ParameterLayout> layout;
  std::vector<float> params = request.initial_params;
  const RunSteps steps{
      [&] {
        CsvReadOptions csv = request.csv;
        read_only_what_features_use(csv, features);
        TimeSeriesTable table = read_time_series_csv(request.data_path, csv);
        config.data_file = request.data_path;
        config.target = table.target >= 0 ? table.channel_names[std::size_t(table.target)] : std::string();
        config.date_column = table.date_column_name;
        config.interpolate_missing = request.csv.missing == CsvReadOptions::Missing::interpolate;
        config.decimal_mark = table.decimal_mark;
        config.split = request.data.split;
        config.features = features;
        const std::size_t read_warnings = table.warnings.size();  // the reader's come first; the caller saw them
        data = prepare_forecast_data(std::move(table), request.data);
        outcome.warnings.assign(data->warnings.begin() + std::ptrdiff_t(std::min(read_warnings, data->warnings.size())),
                                data->warnings.end());
        config.channels = data->table.channel_names;  // S: the target alone
        config.scaler = data->scaler;
      },
      [&] {
        config.model = request.model;
        config.model.channels = data->scaled.cols;
        config.model.target_channel = data->forecast_channel;
        config.model.seq_len = request.data.seq_len;
        config.model.horizon = request.data.horizon;
        config.model.validate();
        config.train = request.train;
        // Found (or the given one refused) before anything is written.
        period = seasonal_period_of(*data, request.seasonal_period);
        layout.emplace(config.model);
        if (!params.empty() && params.size() != layout->total())
          throw std::invalid_argument("the weights to continue from have " + std::to_string(params.size()) +
                                      " parameters but this configuration needs " + std::to_string(layout->total()) +
                                      " (a different architecture or number of channels)");
        const TrainingMemoryCheck memory = require_training_memory(config.model, config.train.threads);
        train_set.emplace(*data, data->train);
        val_set.emplace(*data, data->validation);
        test_set.emplace(*data, data->test);
        // A device that cannot be used refuses the run here, before its folder is made.
        if (request.engine) engine = request.engine(config.model, config.train, *train_set, *val_set);
        metrics.device = engine ? engine->device() : "cpu";
        return memory;
      },
      [&] { write_run_config(request.out_dir, config); },
      [&] {
        if (params.empty()) {
          std::mt19937 rng(request.train.seed);
          init_parameters(params, *layout, rng);
        }
        const ForecastTask train_task(config.model, *train_set), val_task(config.model, *val_set),
            test_task(config.model, *test_set);
        Trainer trainer(*layout, params, request.train);
        trainer.use_engine(engine.get());
        const CheckpointedRun run{
            metrics,
            [&](const std::vector<float>& weights) { write_forecast_checkpoint(request.out_dir, config, weights); },
            [&] { write_run_metrics(request.out_dir, metrics); },
            [&](const EpochRecord& best) {
              metrics.validation = EvalMetrics{};
              metrics.validation.mse = best.val_loss;
              metrics.validation.windows = val_set->size();
            },
            [&] {
              metrics.validation = forecast_metrics(trainer, val_task);
              metrics.test = forecast_metrics(trainer, test_task);
              metrics.test_comparison = compare_with_baselines(metrics.test, *data, *period);
            }};
        train_with_checkpoints(trainer, params, train_task, val_task, run, callbacks);
      }};
  run_in_order(steps, request.out_dir, request.on_memory_checked);
  return outcome;
}

ForecastData prepare_run_data(const ForecastRunConfig& config, const std::string& data_path, const CancelToken& token) {
  CsvReadOptions csv;
  csv.set_token(token);
  csv.columns = config.channels;
  csv.target = config.target;
  csv.date_column = config.date_column;
  read_only_what_features_use(csv, config.features);
  if (config.interpolate_missing) csv.missing = CsvReadOptions::Missing::interpolate;
  csv.decimal_mark = config.decimal_mark;
  TimeSeriesTable table = read_time_series_csv(data_path, csv);
  ForecastDataOptions options;
  options.seq_len = config.model.seq_len;
  options.horizon = config.model.horizon;
  options.split = config.split;
  options.features = config.features;
  ForecastData data = prepare_forecast_data(std::move(table), options);
  data.scaler = config.scaler;
  standard_scaler_transform(data.scaled.data, data.table.values.data, data.scaler);
  return data;
}

void forecast_scaled(const LoadedForecastRun& run, const float* x, float* y) {
  const ParameterLayout layout(run.config.model);
  ForwardState<float> state(run.config.model);
  forecast_forward(state, run.params.data(), layout, run.config.model, x);
  std::copy(state.y.begin(), state.y.end(), y);
}

namespace {

WindowForecast forecast_from_row(const LoadedForecastRun& run, const ForecastData& data, int input_row, int window,
                                 const BatchForecaster& forecaster) {
  const ModelConfig& m = run.config.model;
  const int C = m.channels, K = m.outputs(), first = m.first_output_channel(), T = m.seq_len, H = m.horizon;
  const int rows = data.scaled.rows;
  if (data.forecast_channel != m.target_channel || data.scaled.cols != C)
    throw std::invalid_argument("the data was prepared for other features or channels than the run's "
                                "(prepare_run_data prepares it as the run did)");
  WindowForecast out;
  out.window = window;
  out.channels = run.config.forecast_channels();
  const float* x = data.scaled.data.data() + std::size_t(input_row) * std::size_t(C);
  std::vector<float> y(std::size_t(H) * std::size_t(K));
  if (forecaster) forecaster(y.data(), x, 1);
  else forecast_scaled(run, x, y.data());
  out.forecast = Matrix<double>(H, K);
  standard_scaler_inverse(out.forecast.data, y, data.forecast_scaler());
  const auto& values = data.table.values;
  // Rows [from, from + count) of the channels forecast, in original units.
  const auto forecast_columns = [&](int from, int count) {
    Matrix<double> part(count, K);
    for (int r = 0; r < count; ++r)
      for (int k = 0; k < K; ++k) part(r, k) = values(from + r, first + k);
    return part;
  };
  out.history = forecast_columns(input_row, T);
  const int first_target = input_row + T;
  const int known = std::max(0, std::min(H, rows - first_target));
  if (known == H) out.truth = forecast_columns(first_target, H);
  const std::vector<std::string>& dates = data.table.dates;
  // Past the last row the dates continue the file's cadence; without dates, rows are numbered from 1.
  const std::vector<std::string> after_end =
      dates.empty() || known == H ? std::vector<std::string>() : continue_dates(dates, H - known);
  const auto date_of = [&](int row) {
    if (dates.empty()) return std::to_string(row + 1);
    if (row < int(dates.size())) return dates[std::size_t(row)];
    const std::size_t past = std::size_t(row - int(dates.size()));
    return past < after_end.size() ? after_end[past] : std::string();
  };
  for (int t = 0; t < T; ++t) out.history_dates.push_back(date_of(input_row + t));
  for (int h = 0; h < H; ++h) out.dates.push_back(date_of(first_target + h));
  return out;
}

}  // namespace

WindowForecast forecast_test_window(const LoadedForecastRun& run, const ForecastData& data, int window,
                                    const BatchForecaster& forecaster) {
  const int count = data.test.sample_count();
  if (window < 0 || window >= count)
    throw std::invalid_argument("window " + std::to_string(window) + " does not exist: the test part has windows 0 to " +
                                std::to_string(count - 1));
  return forecast_from_row(run, data, data.test.input_row(window), window, forecaster);
}

WindowForecast forecast_after_end(const LoadedForecastRun& run, const ForecastData& data, const BatchForecaster& forecaster) {
  const int rows = data.scaled.rows, T = run.config.model.seq_len;
  if (rows < T)
    throw std::invalid_argument("the data has " + std::to_string(rows) + " rows but the look-back needs " +
                                std::to_string(T));
  return forecast_from_row(run, data, rows - T, -1, forecaster);
}

EvalMetrics evaluate_test_windows(const LoadedForecastRun& run, const ForecastData& data, const BatchForecaster& forecaster,
                                  int batch) {
  const ModelConfig& m = run.config.model;
  const ForecastWindows windows(data.scaled, data.test, m.target_channel);
  if (!forecaster) {
    std::vector<float> params = run.params;
    Trainer trainer(ParameterLayout(m), params, run.config.train);
    return forecast_metrics(trainer, ForecastTask(m, windows));
  }
  if (batch < 1) throw std::invalid_argument("the batch must hold at least one window");
  const std::size_t x_size = std::size_t(m.seq_len) * std::size_t(m.channels);
  const std::size_t y_size = std::size_t(m.horizon) * std::size_t(m.outputs());
  std::vector<float> x(std::size_t(batch) * x_size), truth(std::size_t(batch) * y_size), y(truth.size());
  ForecastErrorSums errors(m.outputs());
  for (long first = 0; first < windows.size(); first += batch) {
    const int count = int(std::min<long>(batch, windows.size() - first));
    for (int b = 0; b < count; ++b)
      windows.copy(first + b, x.data() + std::size_t(b) * x_size, truth.data() + std::size_t(b) * y_size);
    forecaster(y.data(), x.data(), count);
    for (int b = 0; b < count; ++b)
      errors.add(y.data() + std::size_t(b) * y_size, truth.data() + std::size_t(b) * y_size, m.horizon);
  }
  return errors.metrics(windows.size());
}

TestComparison evaluate_against_baselines(const LoadedForecastRun& run, const ForecastData& data, const SeasonalPeriod& period,
                                          const BatchForecaster& forecaster, int batch) {
  return compare_with_baselines(evaluate_test_windows(run, data, forecaster, batch), data, period);
}

}  // namespace aaren
