#pragma once
// The recurrent cell, token by token: charts of m_k, c_k, the components of a_k and o_k, and the
// softmax weights of the prefix beside the conventional parallel result. Or block by block
// (paper, Appendix A) with a block-size slider. The m_0 choice starts the cell at -inf (correct) or
// at 0 as printed in the paper; with scores far below 0 the printed start gives NaN in float32.
#include <QList>

#include "ui/explore/cell_run.hpp"
#include "ui/explore/explore_view.hpp"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSlider;
class QStackedWidget;
class QXYSeries;

namespace aaren::ui {

class BlockView;
class ChartPanel;
class SoftmaxBars;

enum class CellMode { tokenByToken, blockByBlock };

class CellTab : public ExploreView {
  Q_OBJECT

 public:
  // Scores this far below 0 make every e^(s - 0) underflow in float32 (e^-104 is below its
  // smallest number), so the paper's m_0 = 0 gives 0 / 0.
  static constexpr double kUnderflowingScoreShift = -120.0;

  explicit CellTab(QWidget* parent = nullptr);

  QString stepNoun() const override;
  QString caption() const override;
  QString formulaHtml() const override;

  void setMode(CellMode mode);
  CellMode mode() const { return mode_; }
  void setBlockSize(int size);
  void setPaperStart(bool on);  // m_0 = 0 as printed instead of -inf
  bool paperStart() const { return paperStart_; }
  // Erratum 2: the printed update exp(c_k - m_k) beside the meant exp(s_k - m_k), token by token.
  void setPrintedTypo(bool on);
  bool printedTypo() const { return printedTypo_; }
  int blockSize() const { return blockSize_; }
  // The whole run drawn faint and dashed before its tokens arrive; off, the charts hold no spoilers.
  void setShowAhead(bool on);
  bool showAhead() const { return showAhead_; }

  const CellRun& cellRun() const { return cell_; }
  const BlockRun& blockRun() const { return blocks_; }
  // The charts in order m_k, c_k, a_k, o_k; each has the series "so far" and, for o_k, "parallel".
  QList<ChartPanel*> cellCharts() const;
  const SoftmaxBars& bars() const { return *bars_; }
  QString undefinedNotice() const;  // shown above the charts when o_k is NaN, empty otherwise
  QString printedNotice() const;    // erratum 2's numbers for the shown token, empty when off
  // Both notices say what the formula beside the view says; a short presenter screen leaves them out.
  void setNoticesShown(bool shown);

 signals:
  // The user asks for scores that make the paper's m_0 = 0 fail.
  void lowScoresRequested();

 protected:
  void rebuild() override;
  void inputsChanged() override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showPosition();
  void fitChartSizes();
  void fitChartRows();
  void fillCharts(int token);
  void showPrintedNotice(int token);
  bool noticesShown_ = true;
  float trackValue(int quantity, int component, int token) const;  // what a chart series draws

  QButtonGroup* modeGroup_;
  QSlider* blockSlider_;
  QLabel* blockLabel_;
  QComboBox* startBox_;
  QCheckBox* typoBox_;
  QPushButton* lowScores_;
  QStackedWidget* stack_;
  QScrollArea* scroll_ = nullptr;
  QLabel* notice_;
  QLabel* printedNotice_;
  ChartPanel* mChart_;
  ChartPanel* cChart_;
  ChartPanel* aChart_;
  ChartPanel* oChart_;
  BlockView* blockView_;
  SoftmaxBars* bars_;
  CellRun cell_;
  BlockRun blocks_;
  CellMode mode_ = CellMode::tokenByToken;
  int blockSize_ = 4;
  bool paperStart_ = false;
  bool printedTypo_ = false;
  bool showAhead_ = false;
};

}  // namespace aaren::ui
