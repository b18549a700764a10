#pragma once
// A long series as a chart can draw it: the rows cut into buckets of consecutive rows, each drawn
// by its lowest and highest value in the order they occur. The outline of the curve, every spike
// included, survives; a file of millions of rows becomes a few thousand points, so the chart
// redraws in milliseconds instead of freezing the window.
#include <QList>
#include <QPointF>
#include <vector>

#include "core/util/matrix.hpp"

namespace aaren::ui {

// Column `column` of `values` (rows, columns) at x positions `x` (rows). Every row when there are
// at most 2 * buckets of them.
QList<QPointF> seriesEnvelope(const std::vector<qreal>& x, const Matrix<double>& values, int column, int buckets);

}  // namespace aaren::ui
