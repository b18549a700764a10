#include "core/data/seasonal_period.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace aaren {

namespace {

constexpr double kSecondsPerDay = 86400;
// The autocorrelation is searched over the last rows of the training part only, enough for any
// season up to a look-back of this order, so that a very long file costs no more than this.
constexpr int kMostRowsSearched = 20000;

std::string rows_text(int n) { return std::to_string(n) + (n == 1 ? " row" : " rows"); }

}  // namespace

int calendar_period(const DateCadence& cadence) {
  const double step = cadence.step;
  switch (cadence.unit) {
    case DateCadence::Unit::months: {
      const int months = int(std::lround(step));
      return months < 12 && 12 % months == 0 ? 12 / months : 0;
    }
    case DateCadence::Unit::seconds:
      if (step == kSecondsPerDay) return 7;
      if (step == 7 * kSecondsPerDay) return 52;
      if (step < kSecondsPerDay) {
        const double per_day = kSecondsPerDay / step;
        if (std::abs(per_day - std::round(per_day)) < 1e-9 && per_day >= 2) return int(std::round(per_day));
      }
      return 0;
    case DateCadence::Unit::decimal_years: {
      const double per_year = std::round(1 / step);
      return per_year >= 2 && std::abs(per_year * step - 1) < 0.01 ? int(per_year) : 0;
    }
    case DateCadence::Unit::none: break;
  }
  return 0;
}

int autocorrelation_period(const Matrix<double>& values, RowRange rows, int max_lag) {
  const int first = std::max(rows.begin, rows.end - kMostRowsSearched);
  const int n = rows.end - first - 1;  // first differences
  // One lag beyond the last searched, to tell whether the last is a peak.
  const int last_lag = std::min(max_lag, n / 2 - 1);
  if (last_lag < 2) return 0;
  std::vector<double> acf(std::size_t(last_lag) + 2, 0.0);  // summed over the channels
  int channels_used = 0;
  std::vector<double> d(static_cast<std::size_t>(n));
  for (int c = 0; c < values.cols; ++c) {
    double mean = 0;
    for (int t = 0; t < n; ++t) {
      d[std::size_t(t)] = values(first + t + 1, c) - values(first + t, c);
      mean += d[std::size_t(t)];
    }
    mean /= n;
    double variance = 0;
    for (double& x : d) {
      x -= mean;
      variance += x * x;
    }
    if (!(variance > 1e-12 * (mean * mean * n + 1e-300))) continue;  // a straight line has no season
    ++channels_used;
    for (int lag = 1; lag <= last_lag + 1; ++lag) {
      double sum = 0;
      for (int t = 0; t + lag < n; ++t) sum += d[std::size_t(t)] * d[std::size_t(t + lag)];
      acf[std::size_t(lag)] += sum / variance;
    }
  }
  if (channels_used == 0) return 0;
  // The highest local peak: a smooth wave longer than the search is high at small lags but has none.
  int best = 0;
  for (int lag = 2; lag <= last_lag; ++lag) {
    const double here = acf[std::size_t(lag)];
    if (here > acf[std::size_t(lag - 1)] && here >= acf[std::size_t(lag + 1)] && (!best || here > acf[std::size_t(best)]))
      best = lag;
  }
  if (!best) return 0;
  const double peak = acf[std::size_t(best)] / channels_used;
  return peak > std::max(0.3, 2 / std::sqrt(double(n))) ? best : 0;
}

SeasonalPeriod find_seasonal_period(const TimeSeriesTable& table, RowRange train_rows, int look_back,
                                    std::optional<int> given) {
  if (train_rows.begin < 0 || train_rows.end > table.values.rows || train_rows.size() < 0)
    throw std::invalid_argument("the training rows " + std::to_string(train_rows.begin) + " to " +
                                std::to_string(train_rows.end) + " are not rows of the table's " +
                                std::to_string(table.values.rows));
  SeasonalPeriod out;
  const std::string too_long = "longer than the look-back of " + rows_text(look_back) +
                               ", so there is no seasonal naive forecast";
  if (given) {
    if (*given < 1)
      throw std::invalid_argument("the seasonal period must be at least 1 row, not " + std::to_string(*given));
    if (*given > look_back) {
      out.note = "the period given, " + rows_text(*given) + ", is " + too_long;
      return out;
    }
    return {*given, "given", "a period of " + rows_text(*given) + ", as given"};
  }
  if (!table.dates.empty()) {
    const DateCadence cadence = infer_date_cadence(
        std::span<const std::string>(table.dates).subspan(std::size_t(train_rows.begin), std::size_t(train_rows.size())));
    if (const int length = calendar_period(cadence)) {
      if (length > look_back) {
        out.note = "the dates (" + describe(cadence) + ") give a period of " + rows_text(length) + ", " + too_long;
        return out;
      }
      return {length, "dates", "a period of " + rows_text(length) + " (the dates are " + describe(cadence) + ")"};
    }
  }
  if (const int length = autocorrelation_period(table.values, train_rows, look_back))
    return {length, "autocorrelation",
            "a period of " + rows_text(length) + " (where the training rows' autocorrelation peaks)"};
  out.note = std::string(table.dates.empty() ? "the file has no dates" : "the dates have no calendar season") +
             " and the training rows' autocorrelation has no clear peak within the look-back, so there is no "
             "seasonal naive forecast";
  return out;
}

}  // namespace aaren
