#include "core/data/forecast_data.hpp"

#include <stdexcept>

#include "core/planning/window_plan.hpp"

namespace aaren {

namespace {

// The table with the target's column alone (features S).
void keep_only_target(TimeSeriesTable& table) {
  const int rows = table.values.rows, channels = table.values.cols, target = table.target;
  if (channels == 1) return;
  Matrix<double> values(rows, 1);
  for (int r = 0; r < rows; ++r) values(r, 0) = table.values(r, target);
  table.values = std::move(values);
  table.channel_names = {table.channel_names[std::size_t(target)]};
  table.target = 0;
}

}  // namespace

StandardScaler ForecastData::forecast_scaler() const {
  if (forecast_channel < 0) return scaler;
  const std::size_t c = std::size_t(forecast_channel);
  return {{scaler.mean.at(c)}, {scaler.stddev.at(c)}};
}

std::vector<std::string> ForecastData::forecast_channel_names() const {
  if (forecast_channel < 0) return table.channel_names;
  return {table.channel_names.at(std::size_t(forecast_channel))};
}

ForecastData prepare_forecast_data(TimeSeriesTable table, const ForecastDataOptions& options) {
  const int rows = table.values.rows;
  const int channels = table.values.cols;
  const int seq_len = options.seq_len;
  const int horizon = options.horizon;
  const WindowLengths lengths{seq_len, horizon};
  // The lengths before the table: window_problem names them whatever the split.
  if (seq_len < 1 || horizon < 1) require_windows({}, lengths);
  if (channels < 1 || rows < 1) throw std::invalid_argument(table.source + ": there is no data to forecast");
  if (table.target >= channels)
    throw std::invalid_argument(table.source + ": the target index " + std::to_string(table.target) +
                                " is not one of the " + std::to_string(channels) + " channels");
  if (needs_target(options.features) && table.target < 0) {
    try {
      require_target_for(options.features, "");
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(table.source + ": " + e.what());
    }
  }
  if (options.features == ForecastFeatures::S) keep_only_target(table);

  ForecastData data;
  data.options = options;
  data.parts = split_rows(options.split, rows, table.times);
  require_windows(data.parts, lengths);

  data.warnings = table.warnings;
  data.scaler = fit_standard_scaler(table.values, data.parts.train, table.channel_names, data.warnings);
  data.scaled = Matrix<float>(rows, table.values.cols);
  standard_scaler_transform(data.scaled.data, table.values.data, data.scaler);

  data.train = make_window_index(window_segment(data.parts, SplitPart::training, seq_len), seq_len, horizon);
  data.validation = make_window_index(window_segment(data.parts, SplitPart::validation, seq_len), seq_len, horizon);
  data.test = make_window_index(window_segment(data.parts, SplitPart::test, seq_len), seq_len, horizon);
  if (options.features == ForecastFeatures::MS) data.forecast_channel = table.target;
  data.table = std::move(table);
  return data;
}

}  // namespace aaren
