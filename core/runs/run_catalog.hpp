#pragma once
// The runs on disk, and the one place that knows how they are laid out (docs/DESIGN.md section 9).
// A runs folder holds run folders as the app and `aaren train` write them:
//   a single model's run    config.json, model.safetensors, metrics.json, loss.csv
//                           (core/forecast/forecast_run_folder.hpp, core/events/event_run_folder.hpp,
//                           core/classify/classify_run_folder.hpp)
//   a side-by-side run      aaren/ and transformer/, each a single model's run, trained on the same
//                           data with the same seed
// config.json's "task" tells a forecasting model ("forecast", or no field) from an event model
// ("events"), a classifier ("classify") and a Decision Transformer ("rl"). Listing reads config.json and metrics.json only, so a folder of many large models is
// listed quickly; the weights are loaded by open_run when a model is used.
#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/classify/classify_run_folder.hpp"
#include "core/events/event_run_folder.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "core/rl/decision_run_folder.hpp"

namespace aaren {

// A model's configuration and, once training has written them, its metrics.
template <class Config, class Metrics>
struct ModelRunFiles {
  Config config;
  std::optional<Metrics> metrics;
};
using ForecastModelFiles = ModelRunFiles<ForecastRunConfig, ForecastRunMetrics>;
using EventModelFiles = ModelRunFiles<EventRunConfig, EventRunMetrics>;
using ClassifyModelFiles = ModelRunFiles<ClassifyRunConfig, ClassifyRunMetrics>;
using DecisionModelFiles = ModelRunFiles<rl::DecisionRunConfig, rl::DecisionRunMetrics>;

// One model of a run, as read from its folder's config.json and metrics.json.
struct ModelRunEntry {
  std::string dir;  // the folder holding the model's files
  std::variant<ForecastModelFiles, EventModelFiles, ClassifyModelFiles, DecisionModelFiles> files;

  const RunTask& task() const;
  ModelKind kind() const;
  const ForecastModelFiles* forecast() const { return std::get_if<ForecastModelFiles>(&files); }
  const EventModelFiles* events() const { return std::get_if<EventModelFiles>(&files); }
  const ClassifyModelFiles* classify() const { return std::get_if<ClassifyModelFiles>(&files); }
  const DecisionModelFiles* decision() const { return std::get_if<DecisionModelFiles>(&files); }
  bool has_metrics() const;
  const TrainSettings& train_settings() const;
  const std::vector<EpochRecord>& epochs() const;  // as metrics.json records them; empty without it
};

struct RunEntry {
  std::string dir;   // absolute
  std::string name;  // the folder's name
  bool side_by_side = false;
  std::chrono::system_clock::time_point modified;  // of the newest file in the run
  std::vector<ModelRunEntry> models;  // Aaren before the Transformer; empty when the run has a problem
  std::string problem;                // why the run cannot be used, naming the file; empty when it can
};

// The sub-folders of a side-by-side run, in display order: {"aaren", "transformer"}.
const std::vector<std::string>& side_by_side_model_folders();
// Where a side-by-side run keeps the model of `kind`: run_dir/aaren or run_dir/transformer.
std::string side_by_side_model_dir(const std::string& run_dir, ModelKind kind);

bool is_run_folder(const std::string& dir);  // has a config.json
bool is_side_by_side_run(const std::string& dir);  // no config.json, but a model's run in aaren/ or transformer/

// The folders of the run's models: the run folder itself for a single model's run, else those of
// its side-by-side sub-folders that hold a run; empty when dir is no run.
std::vector<std::string> run_model_folders(const std::string& dir);

// The task of the run's (first) model by its config.json; nullptr when that cannot be read.
const RunTask* run_task(const std::string& dir);

// One run folder. Throws std::runtime_error naming the file and what is wrong with it; a model
// whose model.safetensors is not written yet is such a problem, but the file is not read.
RunEntry read_run_entry(const std::string& dir);

// Every run directly inside `folder`, newest first; folders that are no run are skipped, and a
// missing folder (or none, "") has none. A run that cannot be read is listed with its problem, so that the user
// sees it rather than wonders where it went.
std::vector<RunEntry> list_runs(const std::string& folder);

// A model with its weights, loaded when it is needed. The folder, the configuration and the
// checkpoint are checked against each other (load_forecast_run, load_event_run): std::runtime_error names
// the file and what is wrong.
using OpenedModel = std::variant<LoadedForecastRun, LoadedEventRun, LoadedClassifyRun, rl::LoadedDecisionRun>;
OpenedModel open_run(const ModelRunEntry& model);
OpenedModel open_run(const std::string& model_dir);  // by its config.json's task
// Where one task is wanted: a model of the other task is refused, saying which it is.
LoadedForecastRun open_forecast_run(const ModelRunEntry& model);
LoadedEventRun open_event_run(const ModelRunEntry& model);
LoadedClassifyRun open_classify_run(const ModelRunEntry& model);

}  // namespace aaren
