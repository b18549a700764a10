#include "ui/charts/series_split_chart.hpp"

#include <QColor>
#include <QLineSeries>
#include <algorithm>
#include <exception>

#include "ui/charts/channel_palette.hpp"
#include "ui/charts/row_axis.hpp"
#include "ui/charts/series_envelope.hpp"

namespace aaren::ui {

namespace {

constexpr int kChartBuckets = 2000;  // about a screen's width in pixels

const QColor kTrainColor(0x2e, 0x9d, 0x5b);
const QColor kValidationColor(0xe0, 0x8a, 0x00);
const QColor kTestColor(0x8e, 0x44, 0xad);

}  // namespace

SeriesSplitChart::SeriesSplitChart(QWidget* parent) : ChartPanel(tr("Series"), parent) {
  setObjectName(QStringLiteral("seriesChart"));
  setPlaceholderText(tr("Open a CSV file or a bundled series to see it here"));
  setLogScaleAvailable(true);
}

SeriesSplitChart::SplitOutcome SeriesSplitChart::showTable(std::shared_ptr<const TimeSeriesTable> table,
                                                           const QString& name, const SplitSpec& split) {
  removeAllSeries();
  table_ = std::move(table);
  rowX_.clear();
  if (!table_) return {};
  const RowAxis axis = rowAxisFor(*table_);
  rowX_ = axis.x;
  // One channel's axis is in its units and bears its name; several share only "value".
  applyRowAxis(*this, axis, table_->channel_names.size() == 1 ? QString::fromStdString(table_->channel_names.front()) : tr("value"));
  setTitle(name);
  const auto draw = [this](int c) {
    auto* series = new QLineSeries;
    series->setName(QString::fromStdString(table_->channel_names[std::size_t(c)]));
    // ChartPanel draws a line with this property that many times wider, in every theme and size.
    if (c == table_->target) series->setProperty("aarenWidthFactor", kTargetLineWidthFactor);
    addSeries(series, channelColor(c));
    setSeriesData(series, seriesEnvelope(rowX_, table_->values, c, kChartBuckets));
  };
  // The target last, so that it is drawn over the others rather than hidden under them.
  for (int c = 0; c < table_->values.cols; ++c)
    if (c != table_->target) draw(c);
  if (table_->target >= 0 && table_->target < table_->values.cols) draw(table_->target);
  return showSplit(split);
}

SeriesSplitChart::SplitOutcome SeriesSplitChart::showSplit(const SplitSpec& split) {
  clearShadedIntervals();
  if (!table_ || rowX_.empty()) return {};
  ChronologicalSplit parts;
  try {
    parts = split_rows(split, table_->values.rows, table_->times);
  } catch (const std::exception& error) {
    return {{}, QString::fromUtf8(error.what())};
  }
  const auto x = [this](int row) { return rowX_[std::size_t(std::clamp(row, 0, int(rowX_.size()) - 1))]; };
  shadeInterval(tr("Training"), x(parts.train.begin), x(parts.validation.begin), kTrainColor);
  shadeInterval(tr("Validation"), x(parts.validation.begin), x(parts.test.begin), kValidationColor);
  shadeInterval(tr("Test"), x(parts.test.begin), x(parts.test.end - 1), kTestColor);
  QString summary = tr("Training %1 rows · validation %2 · test %3")
                        .arg(parts.train.size())
                        .arg(parts.validation.size())
                        .arg(parts.test.size());
  if (const int unused = table_->values.rows - parts.test.end; unused > 0) summary += tr(" · %1 unused").arg(unused);
  return {summary, {}};
}

void SeriesSplitChart::clear() {
  table_.reset();
  rowX_.clear();
  removeAllSeries();
  setTitle(tr("Series"));
}

}  // namespace aaren::ui
