#include "core/data/forecast_data.hpp"

#include <stdexcept>

#include "core/planning/window_plan.hpp"

namespace aaren {

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

  ForecastData data;
  data.options = options;
  data.parts = split_rows(options.split, rows, table.times);
  require_windows(data.parts, lengths);

  data.warnings = table.warnings;
  data.scaler = fit_standard_scaler(table.values, data.parts.train, table.channel_names, data.warnings);
  data.scaled = Matrix<float>(rows, channels);
  standard_scaler_transform(data.scaled.data, table.values.data, data.scaler);

  data.train = make_window_index(window_segment(data.parts, SplitPart::training, seq_len), seq_len, horizon);
  data.validation = make_window_index(window_segment(data.parts, SplitPart::validation, seq_len), seq_len, horizon);
  data.test = make_window_index(window_segment(data.parts, SplitPart::test, seq_len), seq_len, horizon);
  data.table = std::move(table);
  return data;
}

}  // namespace aaren
