#include "ui/chart_view.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <cmath>

namespace aaren::ui {

namespace {

constexpr qreal kZoomStep = 1.25;           // one wheel notch or one key press
constexpr qreal kKeyPanFraction = 0.1;      // of the plot area per arrow key press
constexpr int kMinRubberBandPixels = 4;     // a smaller drag is a click, not a zoom
constexpr qreal kWheelNotch = 120.0;        // QWheelEvent angle units per notch

bool isPanButton(Qt::MouseButton button) { return button == Qt::MiddleButton || button == Qt::RightButton; }

}  // namespace

InteractiveChartView::InteractiveChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
  setRenderHint(QPainter::Antialiasing);
  setRubberBand(QChartView::RectangleRubberBand);
  setFocusPolicy(Qt::StrongFocus);
  setToolTip(tr("Drag: zoom to a rectangle · Wheel: zoom · Right/middle drag or arrows: pan · "
                "Double-click: reset"));
}

void InteractiveChartView::zoomAround(QPointF viewPosition, qreal factor) {
  if (factor <= 0 || !std::isfinite(factor)) return;
  const QRectF area = chart()->plotArea();
  if (area.isEmpty()) return;
  QPointF anchor = chart()->mapFromScene(mapToScene(viewPosition.toPoint()));
  if (!area.contains(anchor)) anchor = area.center();
  QRectF visible(QPointF(0, 0), area.size() / factor);
  visible.moveTopLeft(anchor - (anchor - area.topLeft()) / factor);
  chart()->zoomIn(visible);
  emit viewChangedByUser();
}

void InteractiveChartView::zoomAroundCenter(qreal factor) {
  zoomAround(mapFromScene(chart()->mapToScene(chart()->plotArea().center())), factor);
}

void InteractiveChartView::panByPixels(QPointF delta) {
  chart()->scroll(-delta.x(), delta.y());
  emit viewChangedByUser();
}

void InteractiveChartView::wheelEvent(QWheelEvent* event) {
  const qreal notches = event->angleDelta().y() / kWheelNotch;
  if (notches == 0) return QChartView::wheelEvent(event);
  zoomAround(event->position(), std::pow(kZoomStep, notches));
  event->accept();
}

void InteractiveChartView::mousePressEvent(QMouseEvent* event) {
  if (isPanButton(event->button())) {
    lastPanPosition_ = event->position().toPoint();
    setCursor(Qt::ClosedHandCursor);
    event->accept();
    return;
  }
  if (event->button() == Qt::LeftButton) rubberBandOrigin_ = event->position().toPoint();
  QChartView::mousePressEvent(event);
}

void InteractiveChartView::mouseMoveEvent(QMouseEvent* event) {
  if (lastPanPosition_) {
    const QPoint position = event->position().toPoint();
    panByPixels(position - *lastPanPosition_);
    lastPanPosition_ = position;
    event->accept();
    return;
  }
  QChartView::mouseMoveEvent(event);
}

void InteractiveChartView::mouseReleaseEvent(QMouseEvent* event) {
  // QChartView zooms out on a right click; here the right button pans.
  if (isPanButton(event->button())) {
    lastPanPosition_.reset();
    unsetCursor();
    event->accept();
    return;
  }
  QChartView::mouseReleaseEvent(event);
  if (event->button() == Qt::LeftButton && rubberBandOrigin_) {
    const QPoint drag = event->position().toPoint() - *rubberBandOrigin_;
    rubberBandOrigin_.reset();
    if (std::abs(drag.x()) >= kMinRubberBandPixels && std::abs(drag.y()) >= kMinRubberBandPixels)
      emit viewChangedByUser();
  }
}

void InteractiveChartView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    emit resetRequested();
    event->accept();
    return;
  }
  QChartView::mouseDoubleClickEvent(event);
}

void InteractiveChartView::keyPressEvent(QKeyEvent* event) {
  const QSizeF area = chart()->plotArea().size();
  const qreal dx = area.width() * kKeyPanFraction;
  const qreal dy = area.height() * kKeyPanFraction;
  switch (event->key()) {
    case Qt::Key_Left: panByPixels({dx, 0}); break;
    case Qt::Key_Right: panByPixels({-dx, 0}); break;
    case Qt::Key_Up: panByPixels({0, dy}); break;
    case Qt::Key_Down: panByPixels({0, -dy}); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAroundCenter(kZoomStep); break;
    case Qt::Key_Minus: zoomAroundCenter(1.0 / kZoomStep); break;
    case Qt::Key_Home: emit resetRequested(); break;
    default: QChartView::keyPressEvent(event); return;
  }
  event->accept();
}

}  // namespace aaren::ui
