#pragma once
// Whether a run can be trained further on the data now loaded, as a verdict with its facts for each
// front end to phrase. Continuing keeps the run's architecture and window and starts from its
// weights, so what must match is the data's kind and its channels, by name and in order (a run of
// features S: its target among the channels).
#include <string>
#include <vector>

#include "core/runs/run_catalog.hpp"

namespace aaren {

enum class LoadedData { nothing, time_series, event_log, labelled_series, offline_dataset };

enum class ContinueRefusal {
  none,
  event_data,       // an event log is loaded: event models always start from fresh weights
  event_model,      // the run holds event models, which are never continued
  classifier_data,  // labelled series are loaded: classifiers always start from fresh weights
  classifier_model, // the run holds classifiers, which are never continued
  decision_data,    // an offline RL data set is loaded: Decision Transformers always start from fresh weights
  decision_model,   // the run holds Decision Transformers, which are never continued
  channels_differ,  // the loaded series has other channels than the run was trained on
};

struct ContinueCheck {
  ContinueRefusal refusal = ContinueRefusal::none;
  std::vector<std::string> trained_channels;  // the run's, for channels_differ
  std::vector<std::string> loaded_channels;   // the data's, for channels_differ
  bool ok() const { return refusal == ContinueRefusal::none; }
};

// `run` may be nullptr when an event log, labelled series or an offline data set are loaded (the data alone refuses then); otherwise it is
// the run as read_run_entry read it, without a problem. With nothing loaded only the run is checked.
ContinueCheck check_continuable(const RunEntry* run, LoadedData loaded,
                                const std::vector<std::string>& loaded_channels);

}  // namespace aaren
