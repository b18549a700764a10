#pragma once
// Everything a forecaster needs from a loaded table, prepared once for the trainer and the app
// (docs/DESIGN.md section 5): the chronological split, the z-score scaler fitted on the training part,
// the scaled series, and the windows of each part. The look-back of a validation or test sample may
// reach back across the boundary into the part before (the Informer convention), so every row of
// those parts is a target row of some sample; training samples start at row 0.
#include <string>
#include <vector>

#include "core/data/forecast_features.hpp"
#include "core/data/scaler.hpp"
#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/data/windows.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

struct ForecastDataOptions {
  int seq_len = 96;  // look-back T
  int horizon = 96;  // H
  SplitSpec split;
  ForecastFeatures features = ForecastFeatures::M;  // S and MS need the table's target
};

struct ForecastData {
  TimeSeriesTable table;     // original units, names, dates: what the charts show
  ForecastDataOptions options;
  ChronologicalSplit parts;  // the rows each part owns
  StandardScaler scaler;     // fitted on parts.train only
  Matrix<float> scaled;      // (rows, channels) what the models see
  WindowIndex train;         // segment parts.train
  WindowIndex validation;    // segment from seq_len rows before parts.validation to its end
  WindowIndex test;          // segment from seq_len rows before parts.test to its end
  std::vector<std::string> warnings;  // the table's, then the preparation's
  // MS: the target's channel, the one the model forecasts; -1 (M, S): every channel is forecast.
  // (S keeps the target alone in the table, so its one channel is both input and forecast.)
  int forecast_channel = -1;

  int forecast_channel_count() const { return forecast_channel < 0 ? scaled.cols : 1; }
  // The scaler of the channels forecast, in their order: the whole scaler, or the target's (MS).
  StandardScaler forecast_scaler() const;
  // Their names, in the same order.
  std::vector<std::string> forecast_channel_names() const;
};

// S narrows the table to its target (when it was read with more channels) before anything is fitted.
// Throws PlanError (core/planning/plan_error.hpp) when the lengths are below 1 or a part is too
// short for the windows (window_problem says which, without preparing anything), and
// std::invalid_argument for a table without data, a split that does not fit it, or features S or MS
// without a target.
ForecastData prepare_forecast_data(TimeSeriesTable table, const ForecastDataOptions& options);

}  // namespace aaren
