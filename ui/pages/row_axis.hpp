#pragma once
// Where a table's rows go along a chart's x axis: at their dates when the file has a date column
// (a date-time axis, labelled to the data's spacing: years, months, days or hours), otherwise at
// their row numbers.
#include <QString>
#include <vector>

#include "core/data/time_series_csv.hpp"
#include "ui/chart_panel.hpp"

namespace aaren::ui {

struct RowAxis {
  XAxisKind kind = XAxisKind::value;
  QString dateFormat;     // for XAxisKind::dateTime
  QString title;          // the date column's name, or "row"
  std::vector<qreal> x;   // (rows) milliseconds for dates, else the row number from 1
};

RowAxis rowAxisFor(const TimeSeriesTable& table);

// Sets the chart's x axis kind, format and title (the y title is the caller's).
void applyRowAxis(ChartPanel& chart, const RowAxis& axis, const QString& yTitle);

}  // namespace aaren::ui
