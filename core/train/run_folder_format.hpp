#pragma once
// What the run folders of every task share. Each holds the same four files, each written whole
// through a temporary file (core/io/atomic_file.hpp), so no file of a run folder is ever
// half-written:
//   config.json        "format", "version", "task" (absent for forecasting, whose runs predate it),
//                      the task's model and data sections, and the training settings
//   model.safetensors  the best weights, with the run format's metadata (format, version,
//                      written_by, a checksum of the data, and the task's: model, config, task)
//   metrics.json       per-epoch losses, how training ended, and the task's evaluation
//   loss.csv           epoch, train_loss, val_loss
// The checkpoint carries a copy of config.json, so a folder that mixes the files of two runs (a
// second run into it stopped before its first checkpoint) is recognized as such.
//
// A task writes only what is its own. To add one:
//   1. a RunTask in kRunTasks below, so that the other tasks can name its runs when they refuse them;
//   2. a Config with `version`, `model` and `train` members, written by run_config_text from its
//      model and data sections, and read back by parse_task_run_config;
//   3. a Metrics deriving from TrainingHistory, written by write_run_metrics_files from
//      training_history_json plus its evaluation, and read with parse_training_history;
//   4. its checkpoint: serialize_run_parameters with its metadata ("task", "model", "config"), read
//      by parse_run_parameters with a check of the config copy against config.json;
//   5. load_run_folder over its three parsers, and train_with_checkpoints
//      (core/train/train_with_checkpoints.hpp) for the training loop.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_fields.hpp"
#include "core/io/text_file.hpp"
#include "core/model/model_config.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/train/trainer.hpp"

namespace aaren {

inline constexpr const char* kRunFormat = "aaren-studio-run";
// Version 2 added the checkpoint's checksum and its copy of config.json; version 1 runs still load.
inline constexpr int kRunFormatVersion = 2;

inline constexpr const char* kRunConfigFile = "config.json";
inline constexpr const char* kRunCheckpointFile = "model.safetensors";
inline constexpr const char* kRunMetricsFile = "metrics.json";
inline constexpr const char* kRunLossFile = "loss.csv";

// The kind of model a run folder holds, as config.json's "task" names it.
struct RunTask {
  std::string_view name;         // "forecast" is never written: forecasting runs carry no "task"
  std::string_view description;  // "a forecasting run"
  std::string_view plural;       // "forecasting runs"
  int oldest_version;            // the oldest run format version its runs can have
};
inline constexpr RunTask kForecastingRuns{"forecast", "a forecasting run", "forecasting runs", 1};
// Event runs began with run format version 2 (checksummed checkpoints carrying their config).
inline constexpr RunTask kEventModelRuns{"events", "an event-model run", "event-model runs", 2};
inline constexpr RunTask kClassifierRuns{"classify", "a classification run", "classification runs", 2};
inline constexpr RunTask kDecisionRuns{"rl", "a reinforcement-learning run", "reinforcement-learning runs", 2};
inline constexpr RunTask kRunTasks[] = {kForecastingRuns, kEventModelRuns, kClassifierRuns, kDecisionRuns};

// dir/name.
std::string run_file(const std::string& dir, const char* name);
bool run_file_exists(const std::string& path);
// Throws "DIR: no such run folder" unless dir is a folder.
void require_run_folder(const std::string& dir);
// dir/model.safetensors, or an error saying that the run has not saved a model yet.
std::string require_checkpoint_file(const std::string& dir);

// Creates the folder (and its parents) or explains why it cannot be written, and removes the
// temporary files that writes cut short by a killed process left in it.
void prepare_run_folder(const std::string& dir);

// config.json --------------------------------------------------------------------------------

// The whole config.json of `task`: "format", "version", "task", then its sections.
std::string run_config_text(const RunTask& task, nlohmann::json model, nlohmann::json data,
                            const TrainSettings& training);
// A config.json of `task` parsed, with its format, task and version checked. Another task's run is
// refused by name ("an event-model run, not a forecasting run").
struct RunConfigDocument {
  nlohmann::json root;
  int version = 0;
};
RunConfigDocument parse_run_config_document(std::string_view text, const std::string& source, const RunTask& task);

nlohmann::json train_settings_json(const TrainSettings& settings);
TrainSettings parse_train_settings(const nlohmann::json& section, const std::string& source);

// kind, d_model, heads, layers and d_ff of the "model" section; the rest is the task's.
nlohmann::json backbone_json(const ModelConfig& model);
// Reads them from root's "model" section, which it returns; `model_source` names that section.
const nlohmann::json& parse_backbone(const nlohmann::json& root, const std::string& source,
                                     const std::string& model_source, ModelConfig& model);

// A task's config.json, read in the order every task checks it: the document
// (parse_run_config_document), the model section (parse_backbone into `backbone(config)`, then
// `read_model` for the task's own fields, then config.model.validate()), the data section
// (`read_data`), and the training settings. The readers take (section, its source, config).
template <class Config, class Backbone, class ReadModel, class ReadData>
Config parse_task_run_config(std::string_view text, const std::string& source, const RunTask& task,
                             Backbone backbone, ReadModel read_model, ReadData read_data) {
  const RunConfigDocument document = parse_run_config_document(text, source, task);
  Config config;
  config.version = document.version;
  const std::string model_source = source + " (model)";
  read_model(parse_backbone(document.root, source, model_source, backbone(config)), model_source, config);
  try {
    config.model.validate();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(model_source + ": " + e.what());
  }
  read_data(json_section(document.root, "data", source), source + " (data)", config);
  config.train = parse_train_settings(json_section(document.root, "training", source), source + " (training)");
  return config;
}

// metrics.json and loss.csv ------------------------------------------------------------------

// The part of metrics.json every task writes.
struct TrainingHistory {
  std::vector<EpochRecord> epochs;
  int best_epoch = 0;
  std::string stop;  // running, completed, early_stopped, cancelled, diverged
  std::string message;
  double train_seconds = 0;
  double samples_per_second = 0;
};

// `epoch_fields` adds a task's own fields to each epoch's object.
using EpochFields = std::function<void(nlohmann::json& epoch, const EpochRecord& record)>;
nlohmann::json training_history_json(const TrainingHistory& history, const EpochFields& epoch_fields = {});
// Parses metrics.json's text into `history`, and returns it for the task's own fields.
nlohmann::json parse_training_history(std::string_view text, const std::string& source, TrainingHistory& history);

// metrics.json (`metrics`, the task's fields added to training_history_json) and loss.csv.
void write_run_metrics_files(const std::string& dir, const nlohmann::json& metrics,
                             const std::vector<EpochRecord>& epochs);

// model.safetensors --------------------------------------------------------------------------

using CheckpointMetadata = std::map<std::string, std::string>;

// Any run's model.safetensors: `params`, laid out by `layout`, with the run format's own metadata
// (format, version, written_by, data_fnv1a64) and the task's (task, model, config). `model` names
// the configuration in the message thrown (std::invalid_argument) when the sizes differ.
std::string serialize_run_parameters(const ParameterLayout& layout, const std::vector<float>& params,
                                     CheckpointMetadata metadata, const std::string& model);

// The task's check of a checkpoint's metadata against config.json (version config_version), once
// its format, checksum, version and task have passed: whether the weights were written for the
// run that config.json describes.
using CheckpointConfigCheck = std::function<void(const CheckpointMetadata& metadata, int version)>;

// The parameters in `layout` order, once the checkpoint has passed every check: structure, format,
// checksum (before anything else is said about its values), version, task, the task's own check,
// then names and shapes. Throws std::runtime_error "SOURCE: PROBLEM".
std::vector<float> parse_run_parameters(std::string_view bytes, const std::string& source, const RunTask& task,
                                        int config_version, const ParameterLayout& layout,
                                        const CheckpointConfigCheck& check_config);

// The value of a metadata key, or an error saying it is missing.
const std::string& required_metadata(const CheckpointMetadata& metadata, const std::string& key,
                                     const std::string& source);

// The backbone's fields (kind, d_model, heads, layers, d_ff) in which a and b differ, by the
// names messages use; each task adds the differences of its own fields.
std::vector<std::string> backbone_differences(const ModelConfig& a, const ModelConfig& b);

// A task's check of a checkpoint's copy of config.json against config.json itself. Throws
// "SOURCE: written for WRITTEN, but this run's config.json describes CURRENT: a model of another
// shape (d_ff differs)" unless `fields`, the model's differences, is empty.
void require_same_model(const std::string& source, const std::vector<std::string>& fields, const std::string& written,
                        const std::string& current);
// Throws "SOURCE: trained on data prepared otherwise than config.json describes (split differs): ..."
// unless `fields`, the differences in how the data was prepared, is empty.
void require_same_preparation(const std::string& source, const std::vector<std::string>& fields);

// For messages: "2 heads", "1 layer", "3 classes"; "d_model differs", "kind, d_model differ".
std::string count_of(int count, const char* noun);
std::string differ(const std::vector<std::string>& fields);

// Loading ------------------------------------------------------------------------------------

template <class Config, class Metrics>
struct LoadedRunFolder {
  std::string dir;
  Config config;
  std::vector<float> params;
  bool has_metrics = false;
  Metrics metrics;
};

// Reads config.json, then model.safetensors checked against it, then metrics.json when present,
// each through the task's parser. Messages say which file and what is wrong.
template <class Config, class Metrics>
LoadedRunFolder<Config, Metrics> load_run_folder(
    const std::string& dir, Config (*parse_config)(std::string_view, const std::string&),
    std::vector<float> (*parse_checkpoint)(std::string_view, const std::string&, const Config&),
    Metrics (*parse_metrics)(std::string_view, const std::string&)) {
  require_run_folder(dir);
  LoadedRunFolder<Config, Metrics> run;
  run.dir = dir;
  const std::string config_path = run_file(dir, kRunConfigFile);
  run.config = parse_config(read_text_file(config_path), config_path);
  const std::string model_path = require_checkpoint_file(dir);
  run.params = parse_checkpoint(read_text_file(model_path), model_path, run.config);
  const std::string metrics_path = run_file(dir, kRunMetricsFile);
  if (run_file_exists(metrics_path)) {
    run.metrics = parse_metrics(read_text_file(metrics_path), metrics_path);
    run.has_metrics = true;
  }
  return run;
}

}  // namespace aaren
