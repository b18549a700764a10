#include "core/planning/continuation.hpp"

#include <algorithm>
#include <stdexcept>

namespace aaren {

ContinueCheck check_continuable(const RunEntry* run, LoadedData loaded,
                                const std::vector<std::string>& loaded_channels) {
  ContinueCheck check;
  switch (loaded) {
    case LoadedData::event_log: check.refusal = ContinueRefusal::event_data; return check;
    case LoadedData::labelled_series: check.refusal = ContinueRefusal::classifier_data; return check;
    case LoadedData::offline_dataset: check.refusal = ContinueRefusal::decision_data; return check;
    case LoadedData::nothing:
    case LoadedData::time_series: break;
  }
  if (!run || run->models.empty())
    throw std::invalid_argument("check_continuable needs a run that was read without a problem");
  const auto is_event_model = [](const ModelRunEntry& model) { return model.events() != nullptr; };
  const auto is_classifier = [](const ModelRunEntry& model) { return model.classify() != nullptr; };
  if (std::any_of(run->models.begin(), run->models.end(), is_event_model)) {
    check.refusal = ContinueRefusal::event_model;
    return check;
  }
  if (std::any_of(run->models.begin(), run->models.end(), is_classifier)) {
    check.refusal = ContinueRefusal::classifier_model;
    return check;
  }
  if (!run->models.front().forecast()) {
    check.refusal = ContinueRefusal::decision_model;
    return check;
  }
  const ForecastRunConfig& config = run->models.front().forecast()->config;
  const std::vector<std::string>& trained = config.channels;
  // Features S read the target alone from whatever channels the series has.
  const bool has_trained = config.features == ForecastFeatures::S
                               ? std::find(loaded_channels.begin(), loaded_channels.end(), config.target) !=
                                     loaded_channels.end()
                               : trained == loaded_channels;
  if (loaded == LoadedData::time_series && !has_trained) {
    check.refusal = ContinueRefusal::channels_differ;
    check.trained_channels = trained;
    check.loaded_channels = loaded_channels;
  }
  return check;
}

}  // namespace aaren
