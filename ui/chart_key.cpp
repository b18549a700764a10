#include "ui/chart_key.hpp"

#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QTextDocument>
#include <algorithm>

namespace aaren::ui {
namespace {

// A legend entry's marker and the gaps around it, in lines of the legend's text (measured on Qt
// 6.4: 1.05 to 1.5 lines from 24 px down to 13 px text; kept generous, as a cut name is worse than
// an entry moved aside).
constexpr qreal kLegendEntryExtraLines = 2.5;

}  // namespace

LegendPlace legendPlaceFor(const QLegend& legend, const QList<QLegendMarker*>& entries, qreal width) {
  if (width <= 0) return LegendPlace::row;  // not laid out yet
  const QFontMetricsF metrics(legend.font());
  const qreal extra = kLegendEntryExtraLines * metrics.height();
  qreal row = 0;
  qreal column = 0;
  for (const QLegendMarker* marker : entries) {
    const qreal entry = metrics.horizontalAdvance(marker->label()) + extra;
    row += entry;
    column = std::max(column, entry);
  }
  if (row <= width) return LegendPlace::row;
  return width - column >= kMinimumPlotShare * width ? LegendPlace::column : LegendPlace::key;
}

QString unbrokenHtml(QString text) { return text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;")); }

QString keyEntryHtml(const QColor& color, const QString& name) {
  return QStringLiteral("<span style=\"color:%1\">\u25a0</span>&nbsp;%2").arg(color.name(), unbrokenHtml(name));
}

QString keyHtml(const QList<QLegendMarker*>& entries) {
  QStringList written;
  for (const QLegendMarker* marker : entries)
    written << keyEntryHtml(marker->brush().color(), marker->label().toHtmlEscaped());
  // Two spaces between entries: the line may break there and only there.
  return written.join(QStringLiteral("&nbsp; "));
}

ChartKey::ChartKey(QGraphicsItem* parent) : QGraphicsTextItem(parent) {
  document()->setDocumentMargin(0);
  setAcceptedMouseButtons(Qt::NoButton);
}

qreal ChartKey::layOut(const QLegend& legend, const QList<QLegendMarker*>& entries, qreal width) {
  setFont(legend.font());
  setDefaultTextColor(legend.labelColor());
  setTextWidth(width);
  setHtml(QStringLiteral("<div align=\"center\">%1</div>").arg(keyHtml(entries)));
  return boundingRect().height();
}

}  // namespace aaren::ui
