#pragma once
// The run folder of an event model. Its four files and how they are written and checked are every
// task's (core/train/run_folder_format.hpp); what is the event model's own:
//   config.json        "task": "events", the architecture, how the log was read and prepared
//                      (columns, mark use and names, time unit and scale, feature standardization,
//                      split), and the training settings
//   model.safetensors  the best weights by the names of ParameterLayout::for_events, with a copy of
//                      config.json and a checksum in its metadata, as a forecasting checkpoint
//   metrics.json       per-epoch losses; validation and test NLL per event, RMSE and accuracy; the
//                      NLL of a Poisson process fitted to the training part, over the same test events
//   loss.csv           epoch, train_loss, val_loss
// Losses per epoch are the training objective: NLL per event with gaps in units of the time scale
// s; metrics.json also gives the validation NLL per event in the data's time unit (+ log s).
#include <string>
#include <string_view>
#include <vector>

#include "core/data/split.hpp"
#include "core/events/event_log.hpp"
#include "core/events/event_model_config.hpp"
#include "core/events/event_split.hpp"
#include "core/events/event_task.hpp"
#include "core/train/run_folder_format.hpp"
#include "core/train/trainer.hpp"

namespace aaren {

inline constexpr const char* kEventRunTask = "events";  // config.json's "task" (kEventModelRuns)

// How the log was read and prepared; a file with the same columns is read and prepared the same way.
struct EventDataPreparation {
  std::string data_file;                // as given when training
  std::string time_column;
  bool time_is_date = false;            // date-times, converted to date_unit from the file's first event
  TimeUnit date_unit = TimeUnit::days;
  char decimal_mark = '.';              // of the numbers in the file
  std::string time_unit;                // of the times the model saw ("minutes"); "" when not named
  std::string sequence_column;          // "" = the whole file is one sequence
  std::string mark_column;              // "" = none
  MarkUse mark_use = MarkUse::none;     // categorical, feature or none: as the column was read
  std::vector<std::string> mark_names;  // categorical marks, index = the model's mark
  double feature_mean = 0, feature_std = 1;  // of the training part's features; the model reads (f - mean) / std
  SplitFractions split = default_event_split_fractions;
  EventSplitMethod split_method = EventSplitMethod::by_sequence;
};

struct EventRunConfig {
  int version = kRunFormatVersion;  // of the files it was read from; files are written in the current one
  EventModelConfig model;
  EventDataPreparation data;
  TrainSettings train;
};

// The epochs' losses are in units of the time scale (see above); samples_per_second counts windows.
struct EventRunMetrics : TrainingHistory {
  EventEvalMetrics validation, test;  // of the best weights
  double poisson_rate = 0;            // fitted to the training part (events per time unit)
  double poisson_test_nll_per_event = 0;  // time NLL over the test part's scored events
};

std::string_view to_string(EventSplitMethod method);  // "by_sequence", "by_time"

std::string event_run_config_json(const EventRunConfig& config);
// Throws std::runtime_error naming the file and field; a forecasting run's config.json is refused
// as such.
EventRunConfig parse_event_run_config(std::string_view text, const std::string& source);

// The whole model.safetensors. Throws std::invalid_argument when params does not fit config.model.
std::string serialize_event_checkpoint(const EventRunConfig& config, const std::vector<float>& params);
// The parameters in ParameterLayout::for_events order, once the file has passed every check against
// `config` (structure, checksum, provenance, the config it was written with, names and shapes).
std::vector<float> parse_event_checkpoint(std::string_view bytes, const std::string& source,
                                          const EventRunConfig& config);

void write_event_run_config(const std::string& dir, const EventRunConfig& config);
void write_event_checkpoint(const std::string& dir, const EventRunConfig& config, const std::vector<float>& params);
// metrics.json and loss.csv.
void write_event_run_metrics(const std::string& dir, const EventRunConfig& config, const EventRunMetrics& metrics);
// metrics.json's text; throws std::runtime_error naming `source` and the field.
EventRunMetrics parse_event_run_metrics(std::string_view text, const std::string& source);

using LoadedEventRun = LoadedRunFolder<EventRunConfig, EventRunMetrics>;

// Validates the folder, the configuration and the checkpoint against each other, as load_forecast_run does
// for forecasting; a forecasting run folder is refused with a message saying so.
LoadedEventRun load_event_run(const std::string& dir);

}  // namespace aaren
