#pragma once
// A forecasting model's test errors as people can read them: in the scaled units the literature
// reports and in the data's own units, per channel and overall, beside the two naive baselines on the
// same test windows (naive_baselines.hpp). The training writes it into metrics.json as
// "test_comparison" (docs/DESIGN.md section 9); `aaren forecast --test-metrics` prints it.
#include <optional>

#include "core/data/forecast_data.hpp"
#include "core/data/scaler.hpp"
#include "core/data/seasonal_period.hpp"
#include "core/forecast/forecast_task.hpp"

namespace aaren {

// One forecaster's errors in both units.
struct UnitMetrics {
  EvalMetrics scaled;
  EvalMetrics original;  // the data's own units
};

struct TestComparison {
  UnitMetrics model;
  UnitMetrics last_value;
  std::optional<UnitMetrics> seasonal_naive;  // absent when there is no seasonal period
  SeasonalPeriod period;                      // the seasonal naive forecast's, or why there is none
};

// Scaled errors in the data's units: a channel's errors scale by its standard deviation, its MSE by
// the square. The overall MSE and MAE are the means over the channels (each has as many values), so
// a channel of large numbers weighs more there, which is why each channel is also reported.
// Throws std::invalid_argument when the per-channel errors are missing or do not match the scaler.
EvalMetrics to_original_units(const EvalMetrics& scaled, const StandardScaler& scaler);
UnitMetrics in_both_units(const EvalMetrics& scaled, const StandardScaler& scaler);

// The model's scaled test errors (with per-channel errors) beside both baselines on the test windows
// of `data`, for the seasonal naive forecast of `period` (none when !period.found()).
TestComparison compare_with_baselines(const EvalMetrics& model_scaled, const ForecastData& data,
                                      const SeasonalPeriod& period);

// The seasonal period of a prepared data set's test windows: find_seasonal_period over its table and
// training rows, for its look-back.
SeasonalPeriod seasonal_period_of(const ForecastData& data, std::optional<int> given = std::nullopt);

}  // namespace aaren
