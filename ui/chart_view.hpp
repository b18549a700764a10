#pragma once
// A QChartView that a lecturer can drive live: left-drag a rectangle to zoom, wheel to zoom around
// the cursor, middle- or right-drag (or the arrow keys) to pan, +/- to zoom, double-click or Home
// to reset. It only moves the view; ChartPanel decides what "reset" means.
#include <QChartView>
#include <QPoint>
#include <optional>

namespace aaren::ui {

class InteractiveChartView : public QChartView {
  Q_OBJECT

 public:
  explicit InteractiveChartView(QChart* chart, QWidget* parent = nullptr);

  // factor > 1 zooms in; the chart point under viewPosition stays where it is.
  void zoomAround(QPointF viewPosition, qreal factor);
  void zoomAroundCenter(qreal factor);
  // Moves the content with the pointer: a positive x shows what was left of the view.
  void panByPixels(QPointF delta);

 signals:
  void viewChangedByUser();  // after any zoom or pan
  void resetRequested();

 protected:
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  std::optional<QPoint> lastPanPosition_;
  std::optional<QPoint> rubberBandOrigin_;
};

}  // namespace aaren::ui
