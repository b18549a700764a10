#include "core/forecast/forecast_evaluation.hpp"

#include <stdexcept>
#include <string>

#include "core/forecast/forecast_windows.hpp"
#include "core/forecast/naive_baselines.hpp"

namespace aaren {

EvalMetrics to_original_units(const EvalMetrics& scaled, const StandardScaler& scaler) {
  const std::size_t channels = scaler.stddev.size();
  if (channels == 0 || scaled.channel_mse.size() != channels || scaled.channel_mae.size() != channels)
    throw std::invalid_argument("errors in the data's units need each channel's scaled errors (" +
                                std::to_string(scaled.channel_mse.size()) + " given for " + std::to_string(channels) +
                                " channels)");
  EvalMetrics original;
  original.windows = scaled.windows;
  for (std::size_t c = 0; c < channels; ++c) {
    const double s = scaler.stddev[c];
    original.channel_mse.push_back(scaled.channel_mse[c] * s * s);
    original.channel_mae.push_back(scaled.channel_mae[c] * s);
    original.mse += original.channel_mse.back() / double(channels);
    original.mae += original.channel_mae.back() / double(channels);
  }
  return original;
}

UnitMetrics in_both_units(const EvalMetrics& scaled, const StandardScaler& scaler) {
  return {scaled, to_original_units(scaled, scaler)};
}

TestComparison compare_with_baselines(const EvalMetrics& model_scaled, const ForecastData& data,
                                      const SeasonalPeriod& period) {
  const ForecastWindows windows(data, data.test);
  const WindowShape shape{data.options.seq_len, data.options.horizon, data.scaled.cols, data.forecast_channel};
  const StandardScaler scaler = data.forecast_scaler();
  TestComparison comparison;
  comparison.model = in_both_units(model_scaled, scaler);
  comparison.last_value = in_both_units(naive_forecast_metrics(windows, shape, 1), scaler);
  if (period.found())
    comparison.seasonal_naive = in_both_units(naive_forecast_metrics(windows, shape, period.length), scaler);
  comparison.period = period;
  return comparison;
}

SeasonalPeriod seasonal_period_of(const ForecastData& data, std::optional<int> given) {
  return find_seasonal_period(data.table, data.parts.train, data.options.seq_len, given);
}

}  // namespace aaren
