#pragma once
// The whole forecasting workflow behind `aaren train` / `aaren forecast` and the app's Train and
// Forecast pages: read a CSV, prepare it, train with the best weights kept on disk as they
// improve, evaluate, and forecast windows from a saved run in the data's original units.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/data/forecast_data.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/train/memory_estimate.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "core/train/step_engine.hpp"
#include "core/forecast/window_set.hpp"

namespace aaren {

// Makes the engine that runs a forecasting model's training steps somewhere other than the CPU
// workers (e.g. gpu::make_forecast_engine), over the run's training and validation windows, which
// outlive it. It throws when that device cannot be used.
using ForecastEngineFactory = std::function<std::unique_ptr<StepEngine>(
    const ModelConfig& config, const TrainSettings& settings, const WindowSet& train, const WindowSet& validation)>;

struct ForecastRunRequest {
  std::string data_path;
  CsvReadOptions csv;         // columns, target, date column, missing values
  ForecastDataOptions data;   // look-back, horizon, split, features (S and MS need csv.target)
  ModelConfig model;          // architecture; channels, seq_len and horizon come from the data options
  TrainSettings train;
  std::string out_dir;
  // To continue an earlier run: its weights (for the same architecture and channels). Empty: a
  // fresh initialization from train.seed.
  std::vector<float> initial_params;
  // Called once the data is read and the memory training needs has been found to fit (a run that
  // does not fit throws before anything is written or allocated), just before training starts.
  std::function<void(const TrainingMemoryCheck&)> on_memory_checked;
  // Where the training steps run; empty: the CPU workers. Evaluation always runs on the CPU.
  ForecastEngineFactory engine;
  // The seasonal naive baseline's period in rows; unset: found from the data (seasonal_period.hpp).
  std::optional<int> seasonal_period;
};

struct ForecastRunOutcome {
  ForecastRunConfig config;
  ForecastRunMetrics metrics;
  // What preparing the data for training found beyond the file's own remarks (which its reader
  // returns): a channel constant over the training rows, which the models cannot learn from.
  std::vector<std::string> warnings;
};

// Trains one model and writes its run folder. The checkpoint is rewritten each time the
// validation loss improves, so a killed run still leaves its best model on disk.
ForecastRunOutcome train_forecast_run(const ForecastRunRequest& request, const TrainCallbacks& callbacks = {});

// The run's view of a data set: the same columns and preparation, scaled with the run's own
// (saved) scaler rather than one refitted to this file.
// `token` stops the read (ReadCancelled) and hears its progress.
ForecastData prepare_run_data(const ForecastRunConfig& config, const std::string& data_path, const CancelToken& token = {});

struct WindowForecast {
  int window = -1;                      // test window index; -1 for the forecast beyond the data
  // (T), (H) as the file writes its dates; beyond the data, the dates continue the file's cadence
  // (date_continuation.hpp). Where the file has no dates: 1-based row numbers, continued past the end.
  std::vector<std::string> history_dates, dates;
  // (K) the channels forecast (ForecastRunConfig::forecast_channels()): the columns of the matrices below.
  std::vector<std::string> channels;
  Matrix<double> history;               // (T, K) the look-back of those channels, original units
  Matrix<double> forecast;              // (H, K) original units
  Matrix<double> truth;                 // (H, K) original units; 0 rows when unknown (beyond the data)
};

// Forecasts of a batch of scaled windows, y (batch, H, K) from x (batch, T, C), with a run's model
// somewhere other than the CPU (e.g. gpu::DeviceForecastModel::forecast). Empty: the CPU.
using BatchForecaster = std::function<void(float* y, const float* x, int batch)>;

// Test window `window` (0-based, in time order) of `data`; throws with the valid range.
WindowForecast forecast_test_window(const LoadedForecastRun& run, const ForecastData& data, int window,
                                    const BatchForecaster& forecaster = {});
// The horizon after the last row of the file.
WindowForecast forecast_after_end(const LoadedForecastRun& run, const ForecastData& data,
                                  const BatchForecaster& forecaster = {});

// MSE and MAE over every value of every test window of `data`, overall and per channel (scaled, as
// metrics.json reports them), `batch` windows at a time through `forecaster`, or on the CPU's workers without one.
EvalMetrics evaluate_test_windows(const LoadedForecastRun& run, const ForecastData& data,
                                  const BatchForecaster& forecaster = {}, int batch = 64);

// The model's test errors (evaluate_test_windows) beside the naive baselines on the same windows, in
// scaled and original units, with the seasonal naive forecast of `period` (seasonal_period_of).
TestComparison evaluate_against_baselines(const LoadedForecastRun& run, const ForecastData& data, const SeasonalPeriod& period,
                                          const BatchForecaster& forecaster = {}, int batch = 64);

// Forecast of one scaled window x (T, C) -> (H, K) scaled, with the run's model.
void forecast_scaled(const LoadedForecastRun& run, const float* x, float* y);

}  // namespace aaren
