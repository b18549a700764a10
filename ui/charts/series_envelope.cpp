#include "ui/charts/series_envelope.hpp"

#include <algorithm>

namespace aaren::ui {

QList<QPointF> seriesEnvelope(const std::vector<qreal>& x, const Matrix<double>& values, int column, int buckets) {
  const int rows = std::min(values.rows, int(x.size()));
  QList<QPointF> points;
  const auto at = [&](int row) { return QPointF(x[std::size_t(row)], values(row, column)); };
  if (buckets < 1 || rows <= 2 * buckets) {
    points.reserve(rows);
    for (int row = 0; row < rows; ++row) points.append(at(row));
    return points;
  }
  points.reserve(2 * buckets);
  for (int b = 0; b < buckets; ++b) {
    const int begin = int(qint64(rows) * b / buckets), end = int(qint64(rows) * (b + 1) / buckets);
    int low = begin, high = begin;
    for (int row = begin + 1; row < end; ++row) {
      if (values(row, column) < values(low, column)) low = row;
      if (values(row, column) > values(high, column)) high = row;
    }
    points.append(at(std::min(low, high)));
    if (low != high) points.append(at(std::max(low, high)));
  }
  return points;
}

}  // namespace aaren::ui
