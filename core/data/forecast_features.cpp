#include "core/data/forecast_features.hpp"

#include <algorithm>
#include <stdexcept>

namespace aaren {

std::string_view to_string(ForecastFeatures features) {
  switch (features) {
    case ForecastFeatures::S: return "S";
    case ForecastFeatures::MS: return "MS";
    case ForecastFeatures::M: break;
  }
  return "M";
}

std::string describe(ForecastFeatures features) {
  switch (features) {
    case ForecastFeatures::S: return "S (the target alone predicts itself)";
    case ForecastFeatures::MS: return "MS (every channel predicts the target)";
    case ForecastFeatures::M: break;
  }
  return "M (every channel predicts every channel)";
}

std::optional<ForecastFeatures> forecast_features_from_string(std::string_view text) {
  if (text == "M") return ForecastFeatures::M;
  if (text == "S") return ForecastFeatures::S;
  if (text == "MS") return ForecastFeatures::MS;
  return std::nullopt;
}

void require_target_for(ForecastFeatures features, const std::string& target) {
  if (!needs_target(features) || !target.empty()) return;
  throw std::invalid_argument(
      features == ForecastFeatures::S
          ? "features S forecast the target from its own past alone, and no target was chosen: choose the "
            "channel to forecast"
          : "features MS forecast the target from every channel, and no target was chosen: choose the channel "
            "to forecast");
}

void read_only_what_features_use(CsvReadOptions& csv, ForecastFeatures features) {
  if (features != ForecastFeatures::S || csv.target.empty()) return;
  if (csv.columns.empty() || std::find(csv.columns.begin(), csv.columns.end(), csv.target) != csv.columns.end())
    csv.columns = {csv.target};
}

}  // namespace aaren
