#pragma once
// The season of a time series, in rows, for the seasonal naive forecast (the value one period
// earlier): given by the user, else the calendar's (12 for monthly data, 4 quarterly, 7 daily, 24
// hourly), else the clearest peak of the training rows' autocorrelation.
#include <optional>
#include <string>

#include "core/data/date_continuation.hpp"
#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

struct SeasonalPeriod {
  int length = 0;      // rows; 0 when there is none
  std::string source;  // "given", "dates" or "autocorrelation"; "" when there is none
  std::string note;    // how it was found ("monthly dates") or why there is none, in a sentence

  bool found() const { return length > 0; }
};

// The calendar's season for a cadence: 12 monthly, 4 quarterly, 7 daily, 52 weekly, the rows of a
// day for steps that divide a day (24 hourly, 96 every 15 minutes), the rows of a year for decimal
// years whose step is a whole fraction of a year (260 for R's business days); 0 for yearly data,
// irregular steps and every other cadence.
int calendar_period(const DateCadence& cadence);

// The lag in [2, max_lag] of the highest local peak of the autocorrelation of the first differences
// of `rows` of `values` (rows, C), averaged over the channels, when that peak is clear: above 0.3
// and above the 95% band of noise, 2 / sqrt(n). Differencing first keeps a trend from passing for a
// season, and asking for a peak keeps a smooth wave longer than max_lag from passing for a short
// one. 0 when there is no such peak; lags beyond half the differences are not searched.
int autocorrelation_period(const Matrix<double>& values, RowRange rows, int max_lag);

// The period for the seasonal naive forecast of windows with look-back `look_back`: `given` when
// set (at least 1), else calendar_period of the table's dates, else autocorrelation_period of the
// training rows up to the look-back. None (length 0, with the reason in `note`) when nothing is
// found or the period found is longer than the look-back, which the forecast only reads.
// Throws std::invalid_argument for a given period below 1.
SeasonalPeriod find_seasonal_period(const TimeSeriesTable& table, RowRange train_rows, int look_back,
                                    std::optional<int> given = std::nullopt);

}  // namespace aaren
