#include "ui/chart_panel.hpp"

// Where a ChartPanel's legend goes (a row, a column or a wrapped key: ui/chart_key.hpp), which
// series it lists, and the room below the plot that the key shares with a note too tall for it.
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <cmath>

#include "ui/chart_key.hpp"

namespace aaren::ui {
namespace {

// Set on a series drawn only to shape the chart: it keeps no legend entry (setInLegend).
constexpr char kUnlistedProperty[] = "aarenUnlisted";

}  // namespace

// The legend's entries in one row below the plot while they fit side by side; else in a column at
// the right while the plot keeps most of the width, since Qt cuts names that share a row too narrow
// ("Transformer tr…"); else in a key below the plot that wraps between entries (ui/chart_key.hpp).
void ChartPanel::fitLegend() {
  QLegend* legend = chart_->legend();
  const qreal width = chart_->size().width() - kChartMargins.left() - kChartMargins.right();
  QList<QLegendMarker*> entries;
  for (QLegendMarker* marker : legend->markers())
    if (!marker->series()->property(kUnlistedProperty).toBool()) entries.append(marker);
  const LegendPlace place = legendPlaceFor(*legend, entries, width);
  if (place != LegendPlace::key) {
    const Qt::Alignment wanted = place == LegendPlace::row ? Qt::AlignBottom : Qt::AlignRight;
    if (legend->alignment() != wanted) legend->setAlignment(wanted);
  }
  const bool shown = legendShown_ && !empty_;
  legend->setVisible(shown && place != LegendPlace::key);
  const bool keyed = shown && place == LegendPlace::key;
  keyHeight_ = keyed ? std::ceil(key_->layOut(*legend, entries, width)) : 0;
  key_->setVisible(keyed);
  placeBelowPlot();
}

// Below the plot, from the top: the key (when the legend is written as one), then a note too tall
// for the plot; the chart's bottom margin makes room for both.
void ChartPanel::placeBelowPlot() {
  QMargins margins = kChartMargins;
  margins.setBottom(margins.bottom() + static_cast<int>(keyHeight_ + noteHeight_));
  if (chart_->margins() != margins) chart_->setMargins(margins);
  key_->setPos(kChartMargins.left(), chart_->size().height() - kChartMargins.bottom() - noteHeight_ - keyHeight_);
}

void ChartPanel::setLegendShown(bool shown) {
  legendShown_ = shown;
  fitLegend();
}

QString ChartPanel::keyShown() const { return key_->isVisible() ? key_->toPlainText() : QString(); }

void ChartPanel::setInLegend(QAbstractSeries* series, bool listed) {
  series->setProperty(kUnlistedProperty, !listed);
  showLegendEntries(series);
  fitLegend();
}

// A series' legend entries are made anew each time it is added to the chart (a band re-adds the
// data series): each time, an unlisted series' entries are hidden again.
void ChartPanel::showLegendEntries(QAbstractSeries* series) {
  const bool listed = !series->property(kUnlistedProperty).toBool();
  for (QLegendMarker* marker : chart_->legend()->markers(series)) marker->setVisible(listed);
}

}  // namespace aaren::ui
