#include "core/data/forecast_data.hpp"

#include <stdexcept>

namespace aaren {

namespace {

void require_rows(const char* part, RowRange rows, int needed, const std::string& what, const char* remedy) {
  if (rows.size() >= needed) return;
  throw std::invalid_argument("the " + std::string(part) + " part has " + std::to_string(rows.size()) + " rows but " +
                              what + " needs at least " + std::to_string(needed) + "; " + remedy);
}

}  // namespace

ForecastData prepare_forecast_data(TimeSeriesTable table, const ForecastDataOptions& options) {
  const int rows = table.values.rows;
  const int channels = table.values.cols;
  const int seq_len = options.seq_len;
  const int horizon = options.horizon;
  if (seq_len < 1 || horizon < 1)
    throw std::invalid_argument("look-back " + std::to_string(seq_len) + " and horizon " + std::to_string(horizon) +
                                " must both be at least 1");
  if (channels < 1 || rows < 1) throw std::invalid_argument(table.source + ": there is no data to forecast");
  if (table.target >= channels)
    throw std::invalid_argument(table.source + ": the target index " + std::to_string(table.target) +
                                " is not one of the " + std::to_string(channels) + " channels");

  ForecastData data;
  data.options = options;
  data.parts = split_rows(options.split, rows, table.times);
  const std::string look_back_and_horizon =
      "look-back " + std::to_string(seq_len) + " + horizon " + std::to_string(horizon);
  const std::string horizon_only = "horizon " + std::to_string(horizon) + " (its look-back reaches into the part before)";
  require_rows("training", data.parts.train, seq_len + horizon, look_back_and_horizon,
               "lower --seq-len/--horizon or use a longer file");
  require_rows("validation", data.parts.validation, horizon, horizon_only,
               "lower --horizon, give validation a larger fraction or use a longer file");
  require_rows("test", data.parts.test, horizon, horizon_only,
               "lower --horizon, give the test part a larger fraction or use a longer file");

  data.warnings = table.warnings;
  data.scaler = fit_standard_scaler(table.values, data.parts.train, table.channel_names, data.warnings);
  data.scaled = Matrix<float>(rows, channels);
  standard_scaler_transform(data.scaled.data, table.values.data, data.scaler);

  data.train = make_window_index(data.parts.train, seq_len, horizon);
  data.validation = make_window_index({data.parts.validation.begin - seq_len, data.parts.validation.end}, seq_len, horizon);
  data.test = make_window_index({data.parts.test.begin - seq_len, data.parts.test.end}, seq_len, horizon);
  data.table = std::move(table);
  return data;
}

}  // namespace aaren
