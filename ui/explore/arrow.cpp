#include "ui/explore/arrow.hpp"

#include <QPainter>
#include <QPainterPath>
#include <cmath>

namespace aaren::ui {

void drawArrow(QPainter& p, QPointF from, QPointF to, const QPen& pen, qreal head) {
  p.setPen(pen);
  p.drawLine(from, to);
  const QPointF d = to - from;
  const qreal length = std::hypot(d.x(), d.y());
  if (length < 1e-6) return;
  const QPointF unit = d / length, normal(-unit.y(), unit.x());
  QPainterPath tip;
  tip.moveTo(to);
  tip.lineTo(to - unit * head + normal * head * 0.5);
  tip.lineTo(to - unit * head - normal * head * 0.5);
  tip.closeSubpath();
  p.fillPath(tip, pen.color());
}

}  // namespace aaren::ui
