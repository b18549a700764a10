#pragma once
// The Explore page: the paper's central idea shown live on real numbers, computed by the core.
// Three animated views share the inputs (random, typed in, or one head of a trained model): the
// prefix-scan tree, the recurrent cell (token by token or block by block), and the Transformer as
// an RNN (Figure 1). Transport controls and the keys (explore_keys.cpp, listed by '?') drive the
// current view from the moment the page is shown; the formula of the current step sits beside it
// and a caption narrates it. Presenter mode folds the inputs away so the drawing gets the screen.
// A lesson scene is shown with applyScene. The view, with its formula and caption, exports as PNG,
// SVG or PDF, and the whole animation as PNG frames.
#include <QList>
#include <QStringList>

#include "ui/chart_export.hpp"
#include "ui/page.hpp"

class QCheckBox;
class QImage;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTabBar;

namespace aaren::ui {

class CellTab;
class ExploreView;
class FormulaPanel;
class InputPanel;
class ScanTab;
class StepBar;
class LinearAttentionView;
class StatePerTokenView;
class TransformerRnnView;
struct ExploreInputs;
struct ExploreScene;

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
  LinearAttentionView& linearView() const { return *linear_; }
  StatePerTokenView& stateView() const { return *state_; }
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

  // Shows one lesson scene: its view, inputs, choices, step and what it lights (explore_scene.hpp).
  // Throws std::invalid_argument naming the field for a view, algorithm, mode or number it does
  // not know or that is out of range.
  void applyScene(const ExploreScene& scene);
  // The stage (view, formula, caption) as it is laid out now; throws std::runtime_error before the
  // page has a size.
  QImage renderStage();
  // Later steps' numbers drawn (faint) before their step; off by default, so nothing is given away.
  void setShowAhead(bool on);
  bool showAhead() const;
  // Every view leaves out what would answer an open lesson question (ExploreView::setAnswerWithheld).
  void setAnswerWithheld(bool withheld);
  FormulaPanel& formulaPanel() const { return *formula_; }
  // The inputs, the view's choices and the export buttons; folded away in presenter mode, where a
  // button brings them back.
  void setControlsShown(bool shown);
  // While a lesson is shown in presenter mode on a short screen, the row of views and their
  // switches gives its room to the stage.
  void setLessonShown(bool shown);
  bool viewRowShown() const { return !viewRow_->isHidden(); }

  // Throw std::runtime_error naming the file and the reason.
  void exportCurrentView(const QString& path, ExportFormat format);
  QStringList exportAnimationFrames(const QString& folder);

 protected:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;  // '?' and '+' (explore_keys.cpp)
  bool eventFilter(QObject* watched, QEvent* event) override;  // the stage's resize refits the formula

 private:
  void bindKeys();     // explore_keys.cpp
  void toggleErrata();
  void reportSpeed();  // the current view's speed, in the status bar
  void setInputs(const ExploreInputs& inputs);
  void refreshPresentation();
  void applyAppearance();
  int viewMinimumWidth() const;
  void fitFormula();
  void fitShortScreen();
  void showFormula();
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
  QCheckBox* showAheadBox_;
  QPushButton* controlsToggle_;
  QPushButton* formulaToggle_;
  QWidget* viewRow_;
  bool lessonShown_ = false;
  bool formulaFolded_ = false;
  QList<QWidget*> exportButtons_;
  bool presenterLayout_ = false;
  ScanTab* scan_;
  CellTab* cell_;
  TransformerRnnView* figure_;
  LinearAttentionView* linear_;
  StatePerTokenView* state_;
  QList<ExploreView*> views_;
};

}  // namespace aaren::ui
