#pragma once
// The Data page's chart: every channel of the loaded table over its dates (or rows), each in a colour
// of its own (channel_palette.hpp) and the target wider, with the chronological split's training,
// validation and test parts shaded.
#include <QString>
#include <memory>
#include <vector>

#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "ui/chart_panel.hpp"

namespace aaren::ui {

class SeriesSplitChart : public ChartPanel {
  Q_OBJECT

 public:
  explicit SeriesSplitChart(QWidget* parent = nullptr);

  // How the split fell on the table: the summary for the panel, or why it does not fit.
  struct SplitOutcome {
    QString summary;  // "Training 700 rows · validation 100 · test 200"; empty without a table
    QString error;    // empty when the split fits
  };

  // Draws the table's channels titled `name`, then the split; nothing without a table.
  SplitOutcome showTable(std::shared_ptr<const TimeSeriesTable> table, const QString& name, const SplitSpec& split);
  // Shades the split on the table shown.
  SplitOutcome showSplit(const SplitSpec& split);
  void clear();

 private:
  std::shared_ptr<const TimeSeriesTable> table_;
  std::vector<qreal> rowX_;  // (rows) where each row of the table sits on the chart
};

}  // namespace aaren::ui
