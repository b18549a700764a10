#pragma once
// The whole event-model workflow behind `aaren train --task events` / `aaren forecast --task events`:
// read an event log, split it, standardize its feature on the training part, train with the best
// weights kept on disk as they improve, evaluate (NLL per event, RMSE, accuracy, beside a Poisson
// process fitted to the training part), and forecast the next event along the sequences of a
// saved run.
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "core/events/event_log.hpp"
#include "core/events/event_run_folder.hpp"
#include "core/events/event_split.hpp"
#include "core/train/memory_estimate.hpp"

namespace aaren {

struct EventRunRequest {
  std::string data_path;
  EventLogOptions log;  // columns, mark use, the unit of date-time columns
  SplitFractions split = default_event_split_fractions;
  // The architecture: backbone (kind, d_model, heads, layers, d_ff, seq_len = events per window),
  // mixture_components, time_frequencies. marks, feature and time_scale come from the data.
  EventModelConfig model;
  TrainSettings train;
  std::string out_dir;
  // Called once the log is read and split, before the memory check.
  std::function<void(const EventLog&, const EventSplit&)> on_data_read;
  // Called once the memory training needs has been found to fit (a run that does not fit throws
  // before anything is written), just before training starts.
  std::function<void(const TrainingMemoryCheck&)> on_memory_checked;
};

struct EventRunOutcome {
  EventRunConfig config;
  EventRunMetrics metrics;
};

// Trains one model and writes its run folder. The checkpoint is rewritten each time the
// validation loss improves, so a killed run still leaves its best model on disk.
EventRunOutcome train_event_run(const EventRunRequest& request, const TrainCallbacks& callbacks = {});

// A log as a run sees it: read with the run's columns, split with its fractions, marks numbered as
// the run numbers them and the feature standardized with the run's statistics.
struct EventRunData {
  EventLog log;
  EventSplit split;
};

// Throws std::runtime_error when the file does not fit the run (a column missing, a time column of
// another kind, a mark the run was not trained on) or cannot be split as the run was.
// `token` stops the read (ReadCancelled) and hears its progress.
EventRunData prepare_event_run_data(const EventRunConfig& config, const std::string& data_path,
                                    const CancelToken& token = {});

// The model's distribution of the next event after `last_time`.
struct NextEventDistribution {
  double last_time = 0;
  double time_scale = 1;                    // s: mu and sigma describe log(gap / s)
  std::vector<double> weights, mu, sigma;   // (K) the log-normal mixture of gap / s
  std::vector<double> mark_probabilities;   // (M); empty when unmarked
  double mean_next_time = 0;                // last_time + s E[gap / s]
};

// The density of the next event at `time`, per data time unit; 0 at or before last_time.
double next_event_density(const NextEventDistribution& next, double time);

// What the model said after event `index` about the event after it, and how that event turned
// out. The prediction is the one the run's windows score (event_windows.hpp): the stream starts
// afresh at each window, so these NLLs average to the run's test metrics.
struct EventPrediction {
  static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  int index = 0;
  double time = 0;
  NextEventDistribution next;
  bool has_actual = false;  // false after the last event
  double actual_next_time = kUnknown;
  int actual_next_mark = -1;           // -1 when unmarked or unknown
  double time_nll = kUnknown;          // -log p(actual gap) per data time unit; a zero gap scored as 1e-6 s
  double mark_nll = kUnknown;          // -log P(actual mark)
  int predicted_mark = -1;             // the most probable mark; -1 when unmarked
  double actual_mark_probability = kUnknown;
};

struct SequenceForecast {
  std::string id;
  std::vector<EventPrediction> events;  // one per event of the sequence
};

// Steps the run's model as an RNN (EventStream) through `sequence`, which must be prepared as the
// run prepares its data (prepare_event_run_data). Throws std::invalid_argument when it is not.
SequenceForecast forecast_event_sequence(const LoadedEventRun& run, const EventSequence& sequence);

// NLL per event, RMSE and accuracy over every prediction with an actual next event.
EventEvalMetrics forecast_eval_metrics(std::span<const SequenceForecast> forecasts, const EventModelConfig& config);

}  // namespace aaren
