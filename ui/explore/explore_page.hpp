#pragma once
// The Explore page: the paper's central idea shown live on real numbers, computed by the core.
// Three animated views share the inputs (random, typed in, or one head of a trained model): the
// prefix-scan tree, the recurrent cell (token by token or block by block), and the Transformer as
// an RNN (Figure 1). Transport controls and Space / Left / Right / Home / End drive the current
// view; the formula of the current step sits beside it and a caption narrates it. The view, with
// its formula and caption, exports as PNG, SVG or PDF, and the whole animation as PNG frames.
#include <QList>
#include <QStringList>

#include "ui/chart_export.hpp"
#include "ui/page.hpp"

class QCheckBox;
class QLabel;
class QStackedWidget;
class QTabBar;

namespace aaren::ui {

class CellTab;
class ExploreView;
class FormulaPanel;
class InputPanel;
class ScanTab;
class StepBar;
class TransformerRnnView;
struct ExploreInputs;

class ExplorePage : public Page {
  Q_OBJECT

 public:
  explicit ExplorePage(QWidget* parent = nullptr);

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;
  // The inputs: their source, N, d_v, seed, score shift, typed numbers and run folder.
  void restoreSession(const Settings& settings) override;
  void saveSession(Settings& settings) const override;

  InputPanel& inputPanel() const { return *inputs_; }
  ScanTab& scanTab() const { return *scan_; }
  CellTab& cellTab() const { return *cell_; }
  TransformerRnnView& figureView() const { return *figure_; }
  QList<ExploreView*> views() const { return views_; }
  ExploreView& currentView() const;
  void showView(int index);
  StepBar& stepBar() const { return *stepBar_; }
  // What exports render: the current view, its formula and (when shown) its caption.
  QWidget& stage() const { return *stage_; }

  QString caption() const;
  QString formulaHtml() const;
  void setCaptionsVisible(bool visible);
  bool captionsVisible() const;

  // Throw std::runtime_error naming the file and the reason.
  void exportCurrentView(const QString& path, ExportFormat format);
  QStringList exportAnimationFrames(const QString& folder);

 private:
  void setInputs(const ExploreInputs& inputs);
  void refreshPresentation();
  void applyAppearance();
  void chooseViewExport();
  void chooseFramesExport();

  InputPanel* inputs_;
  QTabBar* tabs_;
  QStackedWidget* settingsStack_;
  QStackedWidget* viewStack_;
  FormulaPanel* formula_;
  QLabel* caption_;
  QWidget* stage_;
  StepBar* stepBar_;
  QCheckBox* formulaBox_;
  QCheckBox* captionsBox_;
  ScanTab* scan_;
  CellTab* cell_;
  TransformerRnnView* figure_;
  QList<ExploreView*> views_;
};

}  // namespace aaren::ui
