#include "ui/chart_annotations.hpp"

#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QLineF>
#include <QPen>
#include <QObject>
#include <QScatterSeries>
#include <QStringList>
#include <QTextDocument>
#include <QXYSeries>
#include <cmath>
#include <algorithm>
#include <array>

#include "ui/chart_axes.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kBoxPadding = 6;
constexpr qreal kBoxZ = 1000;  // above the series
constexpr int kBackgroundAlpha = 235;
constexpr qreal kMinTextScale = 0.7;  // smaller than this, a title is no longer read as one

bool segmentCrossesRect(const QPointF& a, const QPointF& b, const QRectF& rect) {
  if (rect.contains(a) || rect.contains(b)) return true;
  const std::array<QLineF, 4> edges{QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.topRight(), rect.bottomRight()),
                                    QLineF(rect.bottomRight(), rect.bottomLeft()),
                                    QLineF(rect.bottomLeft(), rect.topLeft())};
  const QLineF segment(a, b);
  return std::any_of(edges.begin(), edges.end(), [&](const QLineF& edge) {
    return segment.intersects(edge, nullptr) == QLineF::BoundedIntersection;
  });
}

}  // namespace

QRectF annotationRect(const QRectF& plot, const QSizeF& size, AnnotationCorner corner) {
  const bool left = corner == AnnotationCorner::topLeft || corner == AnnotationCorner::bottomLeft;
  const bool top = corner == AnnotationCorner::topLeft || corner == AnnotationCorner::topRight;
  const qreal x = left ? plot.left() + kAnnotationInset : plot.right() - kAnnotationInset - size.width();
  const qreal y = top ? plot.top() + kAnnotationInset : plot.bottom() - kAnnotationInset - size.height();
  return {QPointF(x, y), size};
}

bool lineCrosses(const QPolygonF& line, const QRectF& rect, qreal clearance) {
  const QRectF zone = rect.adjusted(-clearance, -clearance, clearance, clearance);
  if (line.size() == 1) return zone.contains(line.first());
  for (qsizetype i = 1; i < line.size(); ++i)
    if (segmentCrossesRect(line[i - 1], line[i], zone)) return true;
  return false;
}

std::optional<AnnotationCorner> freeCorner(const QRectF& plot, const QSizeF& size, const QList<QPolygonF>& lines) {
  if (size.width() + 2 * kAnnotationInset > plot.width() || size.height() + 2 * kAnnotationInset > plot.height())
    return std::nullopt;
  for (const AnnotationCorner corner : {AnnotationCorner::topLeft, AnnotationCorner::topRight,
                                        AnnotationCorner::bottomRight, AnnotationCorner::bottomLeft}) {
    const QRectF rect = annotationRect(plot, size, corner);
    if (std::none_of(lines.begin(), lines.end(),
                     [&](const QPolygonF& line) { return lineCrosses(line, rect, kAnnotationInset); }))
      return corner;
  }
  return std::nullopt;
}

QList<QPolygonF> seriesInScene(const QList<QXYSeries*>& series, const QRectF& plot, std::pair<double, double> xRange,
                               std::pair<double, double> yRange, bool logY) {
  auto [x0, x1] = xRange;
  auto [y0, y1] = yRange;
  logY = logY && y0 > 0 && y1 > 0;
  if (logY) {
    y0 = std::log10(y0);
    y1 = std::log10(y1);
  }
  QList<QPolygonF> lines;
  if (!(x1 > x0) || !(y1 > y0)) return lines;
  for (const QXYSeries* one : series) {
    if (!one->isVisible()) continue;
    const bool scatter = qobject_cast<const QScatterSeries*>(one) != nullptr;
    QPolygonF line;
    for (const QPointF& point : one->points()) {
      if (logY && point.y() <= 0) continue;
      const double y = logY ? std::log10(point.y()) : point.y();
      const QPointF scene(plot.left() + (point.x() - x0) / (x1 - x0) * plot.width(),
                          plot.bottom() - (y - y0) / (y1 - y0) * plot.height());
      if (scatter) lines.append(QPolygonF{scene});
      else line.append(scene);
    }
    if (!line.isEmpty()) lines.append(line);
  }
  return lines;
}

QString flatSeriesNote(const QList<QXYSeries*>& series, std::pair<double, double> yRange,
                       const std::function<QString(double)>& valueText) {
  AxisRange axis;
  axis.min = yRange.first;
  axis.max = yRange.second;
  QStringList notes;
  bool anyVisible = false;
  for (const QXYSeries* one : series) {
    ValueExtent extent;
    for (const QPointF& point : one->points()) extent.include(point.y());
    if (extent.empty()) continue;
    if (!liesOnBottom(extent, axis)) {
      anyVisible = true;
      continue;
    }
    const QString low = valueText(extent.min), high = valueText(extent.max);
    notes << (low == high ? QObject::tr("%1: %2, constant").arg(one->name(), low)
                          : QObject::tr("%1: %2 to %3").arg(one->name(), low, high));
  }
  return anyVisible ? notes.join(QLatin1Char('\n')) : QString();
}

AnnotationBox::AnnotationBox(QGraphicsItem* parent) : QGraphicsRectItem(parent), label_(new QGraphicsTextItem(this)) {
  setZValue(kBoxZ);
  label_->setPos(kBoxPadding, kBoxPadding);
  label_->document()->setDocumentMargin(0);
  fitFrame();
}

void AnnotationBox::setText(const QString& text) {
  label_->setPlainText(text);
  setMaxWidth(maxWidth_);
}

QString AnnotationBox::text() const { return label_->toPlainText(); }

void AnnotationBox::setStyle(const QFont& font, const QColor& text, const QColor& background, const QColor& frame) {
  label_->setFont(font);
  label_->setDefaultTextColor(text);
  QColor fill = background;
  fill.setAlpha(kBackgroundAlpha);
  setBrush(fill);
  setPen(QPen(frame, 1));
  setMaxWidth(maxWidth_);
}

void AnnotationBox::setMaxWidth(qreal width) {
  maxWidth_ = width;
  label_->setTextWidth(-1);
  const qreal room = width - 2 * kBoxPadding;
  if (width > 0 && label_->boundingRect().width() > room) label_->setTextWidth(std::max<qreal>(room, 1));
  fitFrame();
}

QSizeF AnnotationBox::boxSize() const { return rect().size(); }

void AnnotationBox::fitFrame() {
  const QSizeF text = label_->toPlainText().isEmpty() ? QSizeF() : label_->boundingRect().size();
  setRect(QRectF(QPointF(0, 0), text + QSizeF(2 * kBoxPadding, 2 * kBoxPadding)));
}

QFont fittingFont(const QFont& font, const QString& text, qreal width) {
  const qreal wide = QFontMetricsF(font).horizontalAdvance(text);
  if (!(width > 0) || wide <= width) return font;
  QFont smaller = font;
  const qreal scale = std::max(kMinTextScale, width / wide);
  if (font.pixelSize() > 0) smaller.setPixelSize(std::max(1, int(font.pixelSize() * scale)));
  else smaller.setPointSizeF(font.pointSizeF() * scale);
  return smaller;
}

ChartNote::ChartNote(QChart* chart, const QMargins& margins, std::function<void(qreal)> roomBelow)
    : chart_(chart), margins_(margins), box_(new AnnotationBox(chart)), roomBelow_(std::move(roomBelow)) {
  box_->hide();
}

void ChartNote::place(const QString& text, bool shown, const std::function<QList<QPolygonF>()>& lines,
                      const std::function<void(qreal)>& raise) {
  const QRectF plot = chart_->plotArea();
  shown = shown && !text.isEmpty() && !plot.isEmpty();
  box_->setVisible(shown);
  if (!shown) {
    setRoomBelow(0);
    return;
  }
  box_->setText(text);
  box_->setMaxWidth(plot.width() - 2 * kAnnotationInset);
  QSizeF size = box_->boxSize();
  if (size.height() + 2 * kAnnotationInset > kMaxNoteShare * (plot.height() + below_)) {
    box_->setMaxWidth(chart_->size().width() - margins_.left() - margins_.right());
    size = box_->boxSize();
    setRoomBelow(size.height() + kAnnotationInset);
    box_->setPos(margins_.left(), chart_->size().height() - margins_.bottom() - size.height());
    return;
  }
  setRoomBelow(0);
  std::optional<AnnotationCorner> corner = freeCorner(plot, size, lines());
  if (!corner && raise) {
    raise((size.height() + 2 * kAnnotationInset) / plot.height());
    corner = freeCorner(plot, size, lines());
  }
  box_->setPos(annotationRect(plot, size, corner.value_or(AnnotationCorner::topLeft)).topLeft());
}

void ChartNote::setRoomBelow(qreal height) {
  if (std::abs(height - below_) < 0.5) return;
  below_ = height;
  roomBelow_(height);
}

}  // namespace aaren::ui
