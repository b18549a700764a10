#include "ui/stream_chart_grid.hpp"

#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QResizeEvent>
#include <algorithm>

#include "ui/chart_panel.hpp"

namespace aaren::ui {

StreamChartGrid::StreamChartGrid(const QList<ChartPanel*>& panels, QWidget* parent)
    : QWidget(parent), panels_(panels), grid_(new QGridLayout(this)) {
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(10);
  for (ChartPanel* panel : panels_) {
    panel->setParent(this);
    // A run's notes arrive after the layout: a longer one may need another arrangement.
    connect(panel, &ChartPanel::annotationChanged, this, &StreamChartGrid::arrange);
  }
  arrange();
}

QList<ChartPanel*> StreamChartGrid::shownCharts() const {
  QList<ChartPanel*> shown;
  for (ChartPanel* panel : panels_)
    if (!panel->isHidden()) shown << panel;
  return shown;
}

QSize StreamChartGrid::chartMinimum() const {
  QSize minimum;
  for (const ChartPanel* panel : panels_) minimum = minimum.expandedTo(panel->minimumSizeHint());
  return minimum;
}

QSize StreamChartGrid::minimumSizeHint() const {
  const QSize chart = chartMinimum();
  return {2 * chart.width() + grid_->spacing(), chart.height()};
}

void StreamChartGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange();
}

void StreamChartGrid::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) arrange();
}

void StreamChartGrid::arrange() {
  const int line = QFontMetrics(font()).height();
  const int total = int(panels_.size());
  const QSize minimum = chartMinimum();
  int noteLines = 0;
  for (const ChartPanel* panel : panels_)
    if (!panel->annotation().isEmpty()) noteLines = std::max(noteLines, int(panel->annotation().count(QLatin1Char('\n'))) + 1);
  // A longer note no longer fits inside the plot and is boxed below it: two lines of room for each of
  // its lines (its padding, and a line too long for a narrow chart wraps), so that the plot keeps
  // the height of its ticks (measured: four lines in a 13-line chart left a plot 40 px high).
  const int noteBelow = noteLines > kNoteLinesIncluded ? 2 * noteLines : 0;
  const int chartHeight = std::max((kChartLinesHigh + noteBelow) * line, minimum.height());
  const int chartWidth = std::max(kChartLinesWide * line, minimum.width());
  const bool twoRows = height() >= 2 * chartHeight + grid_->spacing();
  const int fitting = std::clamp((width() + grid_->spacing()) / (chartWidth + grid_->spacing()), 2, total);
  const int rows = twoRows ? 2 : 1;
  const int columns = twoRows ? (total + 1) / 2 : fitting;
  if (rows == rows_ && columns == columns_) return;
  rows_ = rows;
  columns_ = columns;
  for (ChartPanel* panel : panels_) grid_->removeWidget(panel);
  for (int i = 0; i < total; ++i) {
    const bool shown = i < rows * columns;
    panels_[i]->setVisible(shown);
    if (shown) grid_->addWidget(panels_[i], i / columns, i % columns);
  }
  for (int r = 0; r < 2; ++r) grid_->setRowStretch(r, r < rows ? 1 : 0);
  for (int c = 0; c < total; ++c) grid_->setColumnStretch(c, c < columns ? 1 : 0);
}

}  // namespace aaren::ui
