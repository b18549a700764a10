#pragma once
// The Forecast page's table of test errors: each model beside the two forecasts that need no model
// (the last value repeated, and the seasonal naive one when the data has a period), on the same test
// windows, in the scaled units the literature reports and in the data's own units. Two rows per
// forecaster when the run has several channels: all channels, and the channel the page shows.
#include <QString>

class QTableWidget;

namespace aaren::ui {

struct RunForecastSet;

enum ForecastMetricsColumn {
  kMetricsForecaster,
  kMetricsChannel,
  kMetricsScaledMse,
  kMetricsScaledMae,
  kMetricsMse,  // in the data's units
  kMetricsMae,
  kMetricsWindows,
  kMetricsColumns
};

QStringList forecastMetricsHeader();

// Fills `table` (kMetricsColumns columns) for `channel` (an index into the run's channels). Each
// number's cell holds the value in Qt::UserRole. Returns a sentence on the baselines (which period
// the seasonal naive forecast used, or why there is none) for the caption.
QString fillForecastMetrics(QTableWidget& table, const RunForecastSet& set, int channel);

}  // namespace aaren::ui
