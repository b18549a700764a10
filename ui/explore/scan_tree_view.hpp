#pragma once
// A prefix scan drawn as levels x positions: the tokens on top, one row per parallel step, every
// state box showing its (m, u, w), arrows from the two operands of each combine to its result,
// and the outputs o = w / u under the last level. The current step's combines are highlighted;
// hovering a box tells its segment, exact values and the softmax weights it stands for; clicking
// a result of the current step selects its combine for the formula panel. Everything drawn is
// read from a ScanRun (the core's recorded trace).
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/scan/prefix_scan.hpp"

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
  // Errata: once the run is complete, mark the prefixes it leaves incomplete as wrong.
  void setFlagIncomplete(bool on);
  void setStep(int step);  // clamped to 0..stepCount
  int step() const { return step_; }
  void setSelectedCombine(int index);
  int selectedCombine() const { return selectedCombine_; }
  void setFocused(bool focused);  // the tree whose combine the formula panel shows

  std::vector<DrawnState> drawnStates() const;
  std::vector<DrawnOutput> drawnOutputs() const;
  std::vector<int> flaggedPositions() const;
  ScanCounts countsShown() const;  // depth and work up to the shown step
  QString countersText() const;    // "depth 2 of 3 · work 10 of 17"
  QString describe(const Node& node) const;  // the hover text (rich text)
  std::optional<Node> nodeAt(QPointF point) const;
  QRectF boxOf(const Node& node) const;

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 signals:
  void combineSelected(int index);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
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
  int selectedCombineIndex() const;  // selectedCombine_ within the shown step's combines (run_ set)
  bool flagged(int position) const;
  int combineIndexOf(int position) const;  // in the current step, -1 if none
  float largestValue() const;

  const ScanRun* run_ = nullptr;
  QString title_;
  int levelRows_ = 0;
  int step_ = 0;
  int selectedCombine_ = 0;
  bool flagIncomplete_ = false;
  bool focused_ = false;
  std::optional<Node> hovered_;
};

}  // namespace aaren::ui
