#pragma once
// The scan tree: one algorithm, or sequential, Hillis-Steele and Brent-Kung side by side on the same
// tokens, or (errata) the paper's printed Algorithm 1 next to the corrected loop. Each tree counts
// its depth and work as it goes; the trees share one step position and one row height, so their
// depths compare at a glance.
#include <QList>
#include <memory>
#include <vector>

#include "ui/explore/explore_scene.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/scan_run.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QHBoxLayout;

namespace aaren::ui {

class ScanTreeView;

enum class ScanDisplay { sequential, hillisSteele, brentKung, sideBySide };

class ScanTab : public ExploreView {
  Q_OBJECT

 public:
  explicit ScanTab(QWidget* parent = nullptr);

  QString stepNoun() const override;
  QString caption() const override;
  QString formulaHtml() const override;

  void setDisplay(ScanDisplay display);
  ScanDisplay display() const { return display_; }
  QString displayName() const;  // as the algorithm box names it: "Brent–Kung"
  void setErrata(bool on);  // the printed Algorithm 1 beside the corrected loop
  bool errata() const { return errata_; }
  // Scan tree boxes lit for a question's answer or a formula term; cleared by any other change.
  void setLitRanges(const QList<TokenRange>& ranges);
  QList<TokenRange> litRanges() const { return litRanges_; }
  QString legendText() const;  // as read: the box colours, and the highlighter while boxes are lit
  void setShowAhead(bool on);  // later steps' numbers drawn faintly before their step
  bool showAhead() const { return showAhead_; }

  QList<ScanTreeView*> trees() const;  // in the order shown
  // The width the Explore page's stage has for the view and the formula together: trees side by
  // side write their numbers when that room holds them (the formula then folds away), else they
  // show structure alone. Without it, the tab's own width decides.
  void setRoomWidth(int width);
  const ScanRun& run(int tree) const { return *runs_[std::size_t(tree)]; }

 protected:
  void rebuild() override;
  void inputsChanged() override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void startOver();  // rebuilds at step 0 with nothing lit
  void showLegend();
  void showPosition();
  void focusTree(int index);
  void fitNumbers();

  QComboBox* displayBox_;
  QCheckBox* errataBox_;
  QHBoxLayout* treesLayout_;
  QLabel* legend_;
  std::vector<ScanTreeView*> trees_;
  std::vector<std::unique_ptr<ScanRun>> runs_;
  ScanDisplay display_ = ScanDisplay::hillisSteele;
  bool errata_ = false;
  bool showAhead_ = false;
  QList<TokenRange> litRanges_;
  int focused_ = 0;
  int roomWidth_ = 0;
};

}  // namespace aaren::ui
