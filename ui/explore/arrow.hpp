#pragma once
// An arrow for the Explore page's diagrams: a line in `pen` with a filled head of length `head`
// at `to`, in the pen's colour.
#include <QPointF>

class QPainter;
class QPen;

namespace aaren::ui {

void drawArrow(QPainter& p, QPointF from, QPointF to, const QPen& pen, qreal head);

}  // namespace aaren::ui
