#pragma once
// A prefix scan drawn as levels x positions: the tokens on top, one row per parallel step, every
// state box showing its (m, u, w), arrows from the two operands of each combine to its result,
// and the outputs o = w / u under the last level. The current step's combines are highlighted;
// hovering a box tells its segment, exact values and the softmax weights it stands for; clicking
// a result of the current step selects its combine for the formula panel. Everything drawn is
// read from a ScanRun (the core's recorded trace).
#include <QFontMetricsF>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/scan/prefix_scan.hpp"
#include "ui/explore/explore_scene.hpp"

namespace aaren::ui {

class ScanRun;

class ScanTreeView : public QWidget {
  Q_OBJECT

 public:
  // A box with numbers in it: level 0 holds the tokens, level k the results of step k.
  struct DrawnState {
    int level = 0;
    int position = 0;
    float m = 0, u = 0;
    std::vector<float> w;
    bool inCurrentStep = false;
    bool holdsPrefix = false;
  };
  struct DrawnOutput {
    int position = 0;
    std::vector<float> o;
    bool flagged = false;  // errata: shown as a wrong prefix
  };
  struct Node {
    int level = 0;  // -1 for the outputs row
    int position = 0;
  };

  explicit ScanTreeView(QWidget* parent = nullptr);

  // The run must outlive the view (or be replaced first).
  void setRun(const ScanRun* run);
  const ScanRun* run() const { return run_; }
  void setTitle(const QString& title);
  QString title() const { return title_; }
  // Rows kept for steps, at least the run's; trees shown together share one so their depths compare.
  void setLevelRows(int rows);
  // Side by side (the default), a narrow tree writes its counters under its title, so that trees
  // shown together keep their rows level; stacked, it keeps them on the title's line where they fit.
  void setBesideOthers(bool beside);
  // Errata: once the run is complete, mark the prefixes it leaves incomplete as wrong.
  void setFlagIncomplete(bool on);
  void setStep(int step);  // clamped to 0..stepCount
  int step() const { return step_; }
  void setSelectedCombine(int index);
  int selectedCombine() const { return selectedCombine_; }
  void setFocused(bool focused);  // the tree whose combine the formula panel shows
  // Boxes to light: every shown state that holds exactly one of these segments of tokens.
  void setLitRanges(const QList<TokenRange>& ranges);
  QList<TokenRange> litRanges() const { return litRanges_; }
  std::vector<Node> litNodes() const;
  // Off: later steps show only the outline of the boxes they will fill, not their numbers.
  void setShowAhead(bool on);
  bool showAhead() const { return showAhead_; }

  // The two boxes the selected combine of the shown step reads: where their values live, which
  // for a state not updated in the step before is a row further up (Brent–Kung's down-sweep).
  struct Operands {
    Node earlier;
    Node later;
  };
  std::optional<Operands> selectedOperands() const;
  // Off: the boxes show the scan's structure alone (the tab's legend says that hovering a box gives
  // its numbers). For trees side by side on a screen too narrow for their numbers at a readable size
  // (three trees of 8 tokens at 1280 px in presenter mode): what they compare is depth and work.
  void setNumbersShown(bool shown);
  bool numbersShown() const { return numbersShown_; }
  // The narrowest the tree can be with its numbers at the smallest readable size.
  int minimumWidthWithNumbers() const;
  // Lines of numbers the last paint wrote in each box: 3 (m, u, w) or 1 (m), 0 with numbers off;
  // never bars alone.
  int paintedBoxLines() const { return paintedBoxLines_; }
  // Significant digits of the numbers the last paint wrote: kBoxDigits, or fewer on a narrow tree.
  int paintedBoxDigits() const { return paintedBoxDigits_; }

  std::vector<DrawnState> drawnStates() const;
  std::vector<DrawnOutput> drawnOutputs() const;
  std::vector<int> flaggedPositions() const;
  ScanCounts countsShown() const;  // depth and work up to the shown step
  QString countersText() const;    // "depth 2 of 3 · work 10 of 17"
  QString describe(const Node& node) const;  // the hover text (rich text)
  std::optional<Node> nodeAt(QPointF point) const;
  QRectF boxOf(const Node& node) const;

  QSize minimumSizeHint() const override;
  // Stacked, the height its rows need at that width (its header on one line where it fits).
  bool hasHeightForWidth() const override { return !besideOthers_ && run_ != nullptr; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;

 signals:
  void combineSelected(int index);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  static constexpr int kBoxDigits = 3;        // significant digits inside a box; the tool tip has them all
  static constexpr int kFewestBoxDigits = 2;  // where three do not fit at the smallest readable size
  static constexpr qreal kTextWidthShare = 0.92;  // of a box's width: its widest line of text
  // The widest line a box writes ("m −1.08", "u 2.5", "w 0.3"), or of its m alone ("−1.08": one
  // line, the header then says the boxes show m), with `digits` significant digits.
  qreal widestBoxLine(const QFontMetricsF& metrics, bool mOnly, int digits) const;
  QSize minimumSizeFor(bool numbers) const;
  struct Layout {
    QRectF header;
    qreal labelWidth = 0;
    qreal left = 0, top = 0;
    qreal column = 0, row = 0;
    qreal boxWidth = 0, boxHeight = 0;
    int levels = 0;  // step rows, without the tokens and outputs rows
    int headerLines = 1;
    bool compactLabels = false;
  };
  Layout layout() const;
  bool compactAt(int width) const;     // short row names and columns narrower than 4.5 lines
  int headerLinesAt(int width, bool compact) const;  // the title and the counters on one line, or on two
  qreal oneLineBoxHeight() const;
  int rowsHeightAt(int headerLines, bool numbers) const;
  QRectF boxAt(const Layout& l, int rowIndex, int position) const;
  // The steps of paintEvent, in the order they paint.
  struct PaintContext;
  void paintHeader(PaintContext& c) const;
  void paintRowLabels(PaintContext& c) const;
  void measureBoxText(PaintContext& c) const;  // how much text fits in the boxes; paints nothing
  void paintEdges(PaintContext& c) const;      // carried states, arrows, and the steps still to come
  void paintStates(PaintContext& c) const;
  void paintOperands(PaintContext& c) const;   // of the selected combine
  void paintOutputs(PaintContext& c) const;
  void paintAhead(PaintContext& c) const;      // later steps' numbers, faint (show ahead)
  void paintLit(PaintContext& c) const;        // the lit boxes
  int selectedCombineIndex() const;  // selectedCombine_ within the shown step's combines (run_ set)
  bool flagged(int position) const;
  int combineIndexOf(int position) const;  // in the current step, -1 if none
  float largestValue() const;

  const ScanRun* run_ = nullptr;
  QString title_;
  int levelRows_ = 0;
  bool besideOthers_ = true;
  int step_ = 0;
  int selectedCombine_ = 0;
  bool flagIncomplete_ = false;
  bool focused_ = false;
  bool showAhead_ = false;
  bool numbersShown_ = true;
  mutable int paintedBoxLines_ = 0;
  mutable int paintedBoxDigits_ = 0;
  QList<TokenRange> litRanges_;
  std::optional<Node> hovered_;
};

}  // namespace aaren::ui
