#pragma once
// Where a chart's legend goes, and the wrapped key used when Qt's own legend cannot hold its
// entries whole. Qt lays a legend out on one row or in one column and cuts the names that do not
// fit ("para…"); a narrow chart with three entries has room for neither without squeezing the plot
// until its tick labels are cut too. There the entries are written as a key below the plot that
// wraps between entries, never inside a name.
#include <QGraphicsTextItem>
#include <QColor>
#include <QList>
#include <QString>

class QLegend;
class QLegendMarker;

namespace aaren::ui {

enum class LegendPlace { row, column, key };

// row while `entries` fit side by side in `width` in `legend`'s font; else column while a column of
// them leaves the plot at least kMinimumPlotShare of `width`; else key.
LegendPlace legendPlaceFor(const QLegend& legend, const QList<QLegendMarker*>& entries, qreal width);
inline constexpr qreal kMinimumPlotShare = 0.6;

// Text whose spaces never break a line (a legend entry's name).
QString unbrokenHtml(QString text);
// One entry of a key: a square of `color` and `name`, unbroken.
QString keyEntryHtml(const QColor& color, const QString& name);
// Each entry a coloured square and its name, as rich text that breaks only between entries.
QString keyHtml(const QList<QLegendMarker*>& entries);

class ChartKey : public QGraphicsTextItem {
 public:
  explicit ChartKey(QGraphicsItem* parent);
  // Writes `entries` in `legend`'s font and label colour, wrapped at `width`; returns the height
  // the key needs.
  qreal layOut(const QLegend& legend, const QList<QLegendMarker*>& entries, qreal width);
};

}  // namespace aaren::ui
