#include "ui/charts/row_axis.hpp"

#include <QDateTime>
#include <QObject>
#include <QTimeZone>
#include <optional>

#include "core/data/date_parse.hpp"

namespace aaren::ui {

namespace {

constexpr double kHour = 3600.0;
constexpr double kDay = 24.0 * kHour;

QString dateFormatForSpacing(double seconds) {
  if (seconds < 20.0 * kHour) return QStringLiteral("yyyy-MM-dd HH:mm");
  if (seconds < 20.0 * kDay) return QStringLiteral("yyyy-MM-dd");
  if (seconds < 200.0 * kDay) return QStringLiteral("yyyy-MM");
  return QStringLiteral("yyyy");
}

// The date axis shows local time; placing each date at the same wall-clock reading in local time
// keeps the labels on the calendar dates of the file whatever the time zone.
qreal chartMilliseconds(double secondsSinceEpochUtc) {
  const QDateTime utc = QDateTime::fromMSecsSinceEpoch(qint64(secondsSinceEpochUtc * 1000.0), QTimeZone::utc());
  return qreal(QDateTime(utc.date(), utc.time()).toMSecsSinceEpoch());
}

}  // namespace

RowAxis rowAxisFor(const TimeSeriesTable& table) {
  RowAxis axis;
  const int rows = table.values.rows;
  axis.x.reserve(std::size_t(rows));
  if (int(table.times.size()) == rows && rows > 0) {
    axis.kind = XAxisKind::dateTime;
    axis.title = QString::fromStdString(table.date_column_name);
    const double spacing = rows > 1 ? (table.times.back() - table.times.front()) / double(rows - 1) : kDay;
    axis.dateFormat = dateFormatForSpacing(spacing);
    for (const double time : table.times) axis.x.push_back(chartMilliseconds(time));
  } else {
    axis.title = QObject::tr("row");
    for (int row = 0; row < rows; ++row) axis.x.push_back(qreal(row + 1));
  }
  return axis;
}

QString describeAxisPosition(const RowAxis& axis, qreal x) {
  if (axis.kind != XAxisKind::dateTime) return QObject::tr("row %1").arg(qRound64(x));
  return QDateTime::fromMSecsSinceEpoch(qint64(x)).toString(axis.dateFormat);
}

std::vector<qreal> axisPositionsAfterEnd(const RowAxis& axis, const std::vector<std::string>& dates) {
  std::vector<qreal> x;
  if (axis.x.empty()) return x;
  const qreal last = axis.x.back();
  const qreal step = axis.x.size() > 1 ? last - axis.x[axis.x.size() - 2] : 1.0;
  for (std::size_t h = 0; h < dates.size(); ++h) {
    const qreal continued = last + step * qreal(h + 1);
    if (axis.kind != XAxisKind::dateTime) {
      x.push_back(continued);
      continue;
    }
    const std::optional<double> seconds = parse_date_time(dates[h]);
    x.push_back(seconds ? chartMilliseconds(*seconds) : continued);
  }
  return x;
}

void applyRowAxis(ChartPanel& chart, const RowAxis& axis, const QString& yTitle) {
  chart.setXAxisKind(axis.kind, axis.dateFormat.isEmpty() ? QStringLiteral("yyyy-MM-dd") : axis.dateFormat);
  chart.setAxisTitles(axis.title, yTitle);
}

}  // namespace aaren::ui
