#pragma once
// The Efficiency page's four streaming charts (StreamCharts), laid out for the room they have: two
// rows of two where each chart gets enough lines of text to stay readable, else one row of as many
// as the width holds readably (the paper's Figure 5 pair, state memory and cumulative time, always;
// then per-token latency, then the ratio). A chart squeezed below that has its tick labels elided,
// which on a projector at 1280 x 720 in presenter mode is what the class would see.
#include <QList>
#include <QWidget>

class QGridLayout;

namespace aaren::ui {

class ChartPanel;

class StreamChartGrid : public QWidget {
  Q_OBJECT

 public:
  // The panels in StreamCharts::all()'s order; they become children of this grid.
  explicit StreamChartGrid(const QList<ChartPanel*>& panels, QWidget* parent = nullptr);

  QList<ChartPanel*> shownCharts() const;
  // Room for the smallest arrangement (one row of two), whatever the arrangement now: so that the
  // window can always shrink back.
  QSize minimumSizeHint() const override;

  // The least room a chart needs, in lines of the grid's font (title, plot, ticks, legend, a note of
  // up to kNoteLinesIncluded lines inside the plot; the three models' names in one legend line), or
  // its own minimum where that is more. A longer note (four lines with three models) is boxed below
  // the plot and adds its lines and padding.
  static constexpr int kChartLinesHigh = 13;
  static constexpr int kNoteLinesIncluded = 3;
  static constexpr int kChartLinesWide = 22;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;  // the font changes with presenter mode

 private:
  void arrange();
  QSize chartMinimum() const;  // the largest minimum of the panels

  QList<ChartPanel*> panels_;
  QGridLayout* grid_;
  int rows_ = 0, columns_ = 0;
};

}  // namespace aaren::ui
