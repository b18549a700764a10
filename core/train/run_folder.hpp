#pragma once
// A run folder, as `aaren train` and the app write it and `aaren forecast` reads it:
//   config.json        every setting needed to rebuild the model and the data preparation
//   model.safetensors  the best weights, by the names of docs/DESIGN.md section 4
//   metrics.json       per-epoch losses, how training ended, test MSE and MAE (scaled data)
//   loss.csv           epoch, train_loss, val_loss
// Every file is written whole through a temporary file, so no file of a run folder is ever
// half-written; the checkpoint carries a copy of config.json, so a folder that mixes the files of
// two runs (a second run into it stopped before its first checkpoint) is recognized as such.
#include <string>
#include <vector>

#include "core/data/scaler.hpp"
#include "core/data/split.hpp"
#include "core/model/model_config.hpp"
#include "core/train/forecast_task.hpp"
#include "core/train/trainer.hpp"

namespace aaren {

inline constexpr const char* kRunFormat = "aaren-studio-run";
// Version 2 added the checkpoint's checksum and its copy of config.json; version 1 runs still load.
inline constexpr int kRunFormatVersion = 2;
inline constexpr int kOldestRunFormatVersion = 1;

struct RunConfig {
  int version = kRunFormatVersion;    // of the files it was read from; files are written in the current one
  ModelConfig model;
  // How the data was prepared: the same file (or one with the same columns) prepared the same way.
  std::string data_file;              // as given when training
  std::vector<std::string> channels;  // names, in model order
  std::string target;                 // "" when none was chosen
  std::string date_column;            // "" when the file has none
  bool interpolate_missing = false;
  char decimal_mark = '.';            // of the numbers in the file ("decimal_mark", absent before it was recorded)
  SplitSpec split;
  StandardScaler scaler;              // fitted on the training rows
  TrainSettings train;
};

struct RunMetrics {
  std::vector<EpochRecord> epochs;
  int best_epoch = 0;
  std::string stop;     // completed, early_stopped, cancelled, diverged
  std::string message;
  EvalMetrics validation, test;  // of the best weights, on scaled data
  double train_seconds = 0;
  double samples_per_second = 0;
  std::string device = "cpu";  // where it trained: "cpu" or the engine's device ("cuda: <GPU name>")
};

std::string run_config_json(const RunConfig& config);
RunConfig parse_run_config(std::string_view text, const std::string& source);

void write_run_config(const std::string& dir, const RunConfig& config);
void write_checkpoint(const std::string& dir, const RunConfig& config, const std::vector<float>& params);
void write_run_metrics(const std::string& dir, const RunMetrics& metrics);  // metrics.json and loss.csv

struct LoadedRun {
  std::string dir;
  RunConfig config;
  std::vector<float> params;
  bool has_metrics = false;
  RunMetrics metrics;
};

// Validates the folder, the configuration and the checkpoint against each other; messages say
// which file and what is wrong ("model.safetensors: 'blocks.1.mixer.q0' is missing ...").
LoadedRun load_run(const std::string& dir);

// Creates the folder (and its parents) or explains why it cannot be written, and removes the
// temporary files that writes cut short by a killed process left in it.
void prepare_run_folder(const std::string& dir);

}  // namespace aaren
