#pragma once
// The scan tree: one algorithm, or sequential, Hillis-Steele and Blelloch side by side on the same
// tokens, or (errata) the paper's printed Algorithm 1 next to the corrected loop. Each tree counts
// its depth and work as it goes; the trees share one step position and one row height, so their
// depths compare at a glance.
#include <QList>
#include <memory>
#include <vector>

#include "ui/explore/explore_view.hpp"
#include "ui/explore/scan_run.hpp"

class QCheckBox;
class QComboBox;
class QHBoxLayout;

namespace aaren::ui {

class ScanTreeView;

enum class ScanDisplay { sequential, hillisSteele, blelloch, sideBySide };

class ScanTab : public ExploreView {
  Q_OBJECT

 public:
  explicit ScanTab(QWidget* parent = nullptr);

  QString stepNoun() const override;
  QString caption() const override;
  QString formulaHtml() const override;

  void setDisplay(ScanDisplay display);
  ScanDisplay display() const { return display_; }
  void setErrata(bool on);  // the printed Algorithm 1 beside the corrected loop
  bool errata() const { return errata_; }

  QList<ScanTreeView*> trees() const;  // in the order shown
  const ScanRun& run(int tree) const { return *runs_[std::size_t(tree)]; }

 protected:
  void rebuild() override;

 private:
  void showPosition();
  void focusTree(int index);

  QComboBox* displayBox_;
  QCheckBox* errataBox_;
  QHBoxLayout* treesLayout_;
  std::vector<ScanTreeView*> trees_;
  std::vector<std::unique_ptr<ScanRun>> runs_;
  ScanDisplay display_ = ScanDisplay::hillisSteele;
  bool errata_ = false;
  int focused_ = 0;
};

}  // namespace aaren::ui
