#pragma once
// Where a table's rows go along a chart's x axis: at their dates when the file has a date column
// (a date-time axis, labelled to the data's spacing: years, months, days or hours), otherwise at
// their row numbers.
#include <QString>
#include <string>
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

// Where `x` (a position on the axis: chart milliseconds for dates, else a row number from 1) sits,
// in the axis's own words: "1998-08", or "row 17". The window label and the tick labels then agree.
QString describeAxisPosition(const RowAxis& axis, qreal x);

// Where the rows after the table's last sit: at `dates` (as the core continues the file's dates past
// its end: core/data/date_continuation.hpp) on a date axis, else at the next row numbers. A date
// that cannot be read continues by the table's last step.
std::vector<qreal> axisPositionsAfterEnd(const RowAxis& axis, const std::vector<std::string>& dates);

// Sets the chart's x axis kind, format and title (the y title is the caller's).
void applyRowAxis(ChartPanel& chart, const RowAxis& axis, const QString& yTitle);

}  // namespace aaren::ui
