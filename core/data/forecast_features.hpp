#pragma once
// What a forecaster reads and what it forecasts: the Time-Series-Library's --features, with the
// target as its --target (docs/DESIGN.md section 5).
//   M   every channel in, every channel forecast (the default; runs written before the choice are M)
//   S   the target alone in and out: a univariate model of one channel
//   MS  every channel in, the target alone forecast
#include <optional>
#include <string>
#include <string_view>

#include "core/data/time_series_csv.hpp"

namespace aaren {

enum class ForecastFeatures { M, S, MS };

std::string_view to_string(ForecastFeatures features);
// "M", "S" or "MS" (as written, upper case); anything else is nullopt.
std::optional<ForecastFeatures> forecast_features_from_string(std::string_view text);
// In words, for reports and tooltips: "MS (every channel predicts the target)".
std::string describe(ForecastFeatures features);
// "M, S or MS": the names for messages that list them.
inline constexpr const char* kForecastFeaturesNames = "M, S or MS";

// S and MS forecast the target: they need one.
inline bool needs_target(ForecastFeatures features) { return features != ForecastFeatures::M; }

// Throws std::invalid_argument, saying what the mode forecasts, when `features` needs a target and
// `target` is empty.
void require_target_for(ForecastFeatures features, const std::string& target);

// S reads the target column alone: `csv.columns` becomes {target} unless it lists other columns
// without it (then the reader refuses the target as not among the chosen columns).
void read_only_what_features_use(CsvReadOptions& csv, ForecastFeatures features);

}  // namespace aaren
