#pragma once
// Where a chart's note (fitted slopes, "at N = …", the value of a line too small to see) goes: in a
// box in a corner of the plot that no plotted line or point crosses. ChartPanel asks freeCorner for
// one; when every corner is taken, it raises the top of the value axis until the top left corner is
// free, so the note never covers data and never leaves the plot.
#include <QColor>
#include <QFont>
#include <QGraphicsRectItem>
#include <QList>
#include <QMargins>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>
#include <functional>
#include <optional>
#include <utility>

class QChart;
class QGraphicsTextItem;
class QXYSeries;

namespace aaren::ui {

// In the order they are tried: curves that grow leave the top left free, falling ones the top right.
enum class AnnotationCorner { topLeft, topRight, bottomRight, bottomLeft };

// Gap between the plot's frame and the box, and between the box and the nearest plotted line.
inline constexpr qreal kAnnotationInset = 8;

// The box of `size` in `corner` of `plot`, kAnnotationInset inside it.
QRectF annotationRect(const QRectF& plot, const QSizeF& size, AnnotationCorner corner);

// True when a line through `line`'s points (or one of them, for a single point) passes within
// `clearance` of `rect`.
bool lineCrosses(const QPolygonF& line, const QRectF& rect, qreal clearance);

// The first corner of `plot` where a box of `size` fits and no line of `lines` (scene coordinates)
// comes within kAnnotationInset of it; none when every corner is taken or the box is larger than
// the plot.
std::optional<AnnotationCorner> freeCorner(const QRectF& plot, const QSizeF& size, const QList<QPolygonF>& lines);

// Each visible series as the polyline it is drawn as in `plot` (scene coordinates) for the axis
// ranges xRange and yRange (log10 on a log Y axis); a scatter series as separate points.
QList<QPolygonF> seriesInScene(const QList<QXYSeries*>& series, const QRectF& plot, std::pair<double, double> xRange,
                               std::pair<double, double> yRange, bool logY);

// "Aaren: 2.18 kB, constant", one line for each series drawn on the bottom of a linear Y axis over
// yRange (ui/chart_axes.hpp: liesOnBottom) beside one that is not: a line on the frame cannot be
// seen, so its value is written instead. Empty when no series lies there.
QString flatSeriesNote(const QList<QXYSeries*>& series, std::pair<double, double> yRange,
                       const std::function<QString(double)>& valueText);

// The box itself: text on the chart's background colour with a thin frame, drawn above the series.
// Its text wraps at maxWidth when set.
class AnnotationBox : public QGraphicsRectItem {
 public:
  explicit AnnotationBox(QGraphicsItem* parent);

  void setText(const QString& text);
  QString text() const;
  void setStyle(const QFont& font, const QColor& text, const QColor& background, const QColor& frame);
  void setMaxWidth(qreal width);  // <= 0: no limit
  QSizeF boxSize() const;

 private:
  void fitFrame();

  QGraphicsTextItem* label_;
  qreal maxWidth_ = 0;
};

// `font`, or a smaller copy of it (down to 70 %) so that `text` fits in `width` pixels on one line.
QFont fittingFont(const QFont& font, const QString& text, qreal width);

// The most of the plot's height a note may take from the data by raising the Y axis; a taller note
// goes under the chart, below its legend.
inline constexpr qreal kMaxNoteShare = 0.35;

// A chart's note: a box in a free corner of the plot or, when it would take more than kMaxNoteShare
// of the plot's height, under the legend, for which the chart's bottom margin grows. The choice is
// made for the plot as it would be without a note below, so it does not flip as the plot shrinks.
class ChartNote {
 public:
  // `roomBelow` is told the height the note needs below the plot (0 while it sits inside it): the
  // chart's owner adds it to the chart's bottom margin, and the note sits at the very bottom.
  ChartNote(QChart* chart, const QMargins& margins, std::function<void(qreal)> roomBelow);

  AnnotationBox* box() const { return box_; }
  // Shows `text` (hides the note when it is empty or `shown` is false). `lines` gives the plotted
  // lines in scene coordinates for the axes as they are; `raise`, when given, refits the Y axis with
  // that share of its height kept free at the top.
  void place(const QString& text, bool shown, const std::function<QList<QPolygonF>()>& lines,
             const std::function<void(qreal)>& raise);

 private:
  void setRoomBelow(qreal height);

  QChart* chart_;
  QMargins margins_;
  AnnotationBox* box_;
  std::function<void(qreal)> roomBelow_;
  qreal below_ = 0;
};

}  // namespace aaren::ui
