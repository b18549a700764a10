#pragma once
// A forecasting run folder, as `aaren train` and the app write it and `aaren forecast` reads it.
// Its four files and how they are written and checked are every task's (run_folder_format.hpp);
// what is forecasting's own:
//   config.json        the architecture, how the data was prepared (columns, target, features, dates,
//                      gaps, decimal mark, split, the scaler fitted on the training rows), the training
//   model.safetensors  the weights by the names of docs/DESIGN.md section 4
//   metrics.json       validation and test MSE and MAE (scaled data, overall and per channel), the
//                      test errors in the data's units beside the naive baselines, the device
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/forecast_features.hpp"
#include "core/data/scaler.hpp"
#include "core/data/split.hpp"
#include "core/model/model_config.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_task.hpp"
#include "core/train/run_folder_format.hpp"
#include "core/train/trainer.hpp"

namespace aaren {

struct ForecastRunConfig {
  int version = kRunFormatVersion;    // of the files it was read from; files are written in the current one
  ModelConfig model;
  // How the data was prepared: the same file (or one with the same columns) prepared the same way.
  std::string data_file;              // as given when training
  std::vector<std::string> channels;  // names, in model order
  std::string target;                 // "" when none was chosen
  // "features" (absent in runs written before it: M). S: `channels` is the target alone; MS:
  // model.target_channel is the target's index in `channels`.
  ForecastFeatures features = ForecastFeatures::M;
  std::string date_column;            // "" when the file has none
  bool interpolate_missing = false;
  char decimal_mark = '.';            // of the numbers in the file ("decimal_mark", absent before it was recorded)
  SplitSpec split;
  StandardScaler scaler;              // fitted on the training rows
  TrainSettings train;

  // The names of the channels the model forecasts, in the order of its output: `channels`, or the
  // target alone (MS).
  std::vector<std::string> forecast_channels() const;
};

struct ForecastRunMetrics : TrainingHistory {
  EvalMetrics validation, test;  // of the best weights, on scaled data
  // The test errors in both units beside the naive baselines (test_comparison->model.scaled is
  // `test`); absent while training and in runs written before it was recorded.
  std::optional<TestComparison> test_comparison;
  std::string device = "cpu";  // where it trained: "cpu" or the engine's device ("cuda: <GPU name>")
};

std::string run_config_json(const ForecastRunConfig& config);
ForecastRunConfig parse_run_config(std::string_view text, const std::string& source);

void write_run_config(const std::string& dir, const ForecastRunConfig& config);
void write_forecast_checkpoint(const std::string& dir, const ForecastRunConfig& config, const std::vector<float>& params);
void write_run_metrics(const std::string& dir, const ForecastRunMetrics& metrics);  // metrics.json and loss.csv
// metrics.json's text; throws std::runtime_error naming `source` and the field.
ForecastRunMetrics parse_run_metrics(std::string_view text, const std::string& source);

using LoadedForecastRun = LoadedRunFolder<ForecastRunConfig, ForecastRunMetrics>;

// Validates the folder, the configuration and the checkpoint against each other; messages say
// which file and what is wrong ("model.safetensors: 'blocks.1.mixer.q0' is missing ...").
LoadedForecastRun load_forecast_run(const std::string& dir);

}  // namespace aaren
