#include "ui/explore/explore_page.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QTabBar>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "ui/appearance.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/formula_panel.hpp"
#include "ui/explore/frame_export.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/step_bar.hpp"
#include "ui/explore/linear_attention_view.hpp"
#include "ui/explore/state_per_token_view.hpp"
#include "ui/explore/transformer_rnn_view.hpp"
#include "ui/glyph_icons.hpp"
#include "ui/export_dialog.hpp"
#include "ui/settings.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kCaptionFontScale = 1.3;
// A page under this many lines of its text is short (a 720-pixel projector with the lesson's bar
// above it has about 22; 1080 pixels about 37).
constexpr int kShortPageLines = 28;

}  // namespace

ExplorePage::ExplorePage(QWidget* parent)
    : Page(parent), inputs_(new InputPanel(this)), tabs_(new QTabBar(this)), settingsStack_(new QStackedWidget(this)),
      viewStack_(new QStackedWidget), formula_(new FormulaPanel), caption_(new QLabel), stage_(new QWidget(this)),
      stepBar_(new StepBar(this)), formulaBox_(new QCheckBox(tr("Formula"), this)),
      captionsBox_(new QCheckBox(tr("Captions"), this)), showAheadBox_(new QCheckBox(tr("Show ahead"), this)),
      controlsToggle_(new QPushButton(this)), formulaToggle_(new QPushButton(tr("Formula \u25b8"), this)),
      viewRow_(new QWidget(this)), scan_(new ScanTab),
      cell_(new CellTab), figure_(new TransformerRnnView), linear_(new LinearAttentionView), state_(new StatePerTokenView) {
  views_ = {scan_, cell_, figure_, linear_, state_};
  tabs_->setObjectName(QStringLiteral("exploreViews"));
  tabs_->setExpanding(false);
  tabs_->setElideMode(Qt::ElideNone);
  // Five views' names do not fit beside the row's switches on a 1280-pixel projector in presenter
  // mode: there the tab bar scrolls (arrows at its end) rather than widen the window.
  tabs_->setUsesScrollButtons(true);
  tabs_->setDrawBase(false);
  tabs_->setFocusPolicy(Qt::NoFocus);
  for (ExploreView* view : views_) {
    tabs_->addTab(view->title());
    viewStack_->addWidget(view);
    settingsStack_->addWidget(view->settings());
    connect(view, &ExploreView::presentationChanged, this, [this, view] {
      if (view == &currentView()) refreshPresentation();
    });
  }
  settingsStack_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  connect(tabs_, &QTabBar::currentChanged, this, &ExplorePage::showView);

  caption_->setObjectName(QStringLiteral("exploreCaption"));
  caption_->setWordWrap(true);
  caption_->setTextFormat(Qt::PlainText);
  auto* stageLayout = new QGridLayout(stage_);
  stageLayout->setContentsMargins(0, 0, 0, 0);
  stageLayout->setSpacing(6);
  stageLayout->addWidget(viewStack_, 0, 0);
  stageLayout->addWidget(formula_, 0, 1);
  stageLayout->addWidget(caption_, 1, 0, 1, 2);
  stageLayout->setColumnStretch(0, 1);
  stageLayout->setRowStretch(0, 1);

  captionsBox_->setObjectName(QStringLiteral("exploreCaptions"));
  captionsBox_->setChecked(true);
  captionsBox_->setToolTip(tr("A sentence under the view that narrates each step"));
  connect(captionsBox_, &QCheckBox::toggled, this, &ExplorePage::setCaptionsVisible);
  formulaBox_->setObjectName(QStringLiteral("exploreFormula"));
  formulaBox_->setChecked(true);
  formulaBox_->setToolTip(tr("The formula of the current step with its numbers, beside the view"));
  connect(formulaBox_, &QCheckBox::toggled, this, &ExplorePage::showFormula);
  formulaToggle_->setObjectName(QStringLiteral("exploreFormulaToggle"));
  formulaToggle_->setCheckable(true);
  formulaToggle_->setToolTip(tr("The formula was folded away so that the view fits the screen; this shows it beside the "
                                "view again (the view may then scroll)"));
  formulaToggle_->setVisible(false);
  connect(formulaToggle_, &QPushButton::toggled, this, &ExplorePage::showFormula);
  // Short words beside the export glyph, so that the row keeps room for the five views' tabs.
  auto* exportView = new QPushButton(glyphIcon(Glyph::exportChart), tr("View…"), this);
  exportView->setObjectName(QStringLiteral("exploreExportView"));
  exportView->setToolTip(tr("Export the view with its formula and caption as PNG, SVG or PDF"));
  connect(exportView, &QPushButton::clicked, this, &ExplorePage::chooseViewExport);
  auto* exportFrames = new QPushButton(glyphIcon(Glyph::exportChart), tr("Frames…"), this);
  exportFrames->setObjectName(QStringLiteral("exploreExportFrames"));
  exportFrames->setToolTip(tr("Export every step of the animation as numbered PNG files, for slides"));
  connect(exportFrames, &QPushButton::clicked, this, &ExplorePage::chooseFramesExport);
  for (QWidget* button : std::initializer_list<QWidget*>{formulaBox_, captionsBox_, showAheadBox_, controlsToggle_,
                                                         formulaToggle_, exportView, exportFrames})
    button->setFocusPolicy(Qt::NoFocus);

  connect(inputs_, &InputPanel::inputsChanged, this, &ExplorePage::setInputs);
  connect(inputs_, &InputPanel::inputsChanged, this, &Page::sessionChanged);
  connect(inputs_, &InputPanel::modelLoaded, this, [this](const ModelConfig& config, const QString& name) {
    figure_->setModelConfig(config, tr("the size of %1").arg(name));
  });
  connect(cell_, &CellTab::lowScoresRequested, this,
          [this] { inputs_->setRandomScoreShift(CellTab::kUnderflowingScoreShift); });

  bindKeys();
  showAheadBox_->setObjectName(QStringLiteral("exploreShowAhead"));
  showAheadBox_->setToolTip(tr("Later steps' numbers drawn faintly before their step (off: nothing is given away)"));
  connect(showAheadBox_, &QCheckBox::toggled, this, &ExplorePage::setShowAhead);
  controlsToggle_->setObjectName(QStringLiteral("exploreControlsToggle"));
  controlsToggle_->setCheckable(true);
  controlsToggle_->setToolTip(tr("The inputs and the view's choices, folded away in presenter mode"));
  connect(controlsToggle_, &QPushButton::toggled, this, &ExplorePage::setControlsShown);

  auto* viewRow = new QHBoxLayout(viewRow_);
  viewRow->setContentsMargins(0, 0, 0, 0);
  viewRow->setSpacing(10);
  viewRow->addWidget(tabs_);
  viewRow->addStretch(1);
  viewRow->addWidget(controlsToggle_);
  viewRow->addWidget(formulaToggle_);
  viewRow->addWidget(formulaBox_);
  viewRow->addWidget(captionsBox_);
  viewRow->addWidget(showAheadBox_);
  viewRow->addWidget(exportView);
  viewRow->addWidget(exportFrames);
  exportButtons_ = {exportView, exportFrames};

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(20, 10, 20, 10);
  layout->setSpacing(8);
  layout->addWidget(inputs_);
  layout->addWidget(viewRow_);
  layout->addWidget(settingsStack_);
  layout->addWidget(stage_, 1);
  layout->addWidget(stepBar_);

  setControlsShown(true);
  stage_->installEventFilter(this);
  // A number typed into a spin box must not take the arrows from the view (see eventFilter).
  for (QAbstractSpinBox* spin : inputs_->findChildren<QAbstractSpinBox*>()) spin->installEventFilter(this);
  connect(&Appearance::instance(), &Appearance::changed, this, &ExplorePage::applyAppearance);
  applyAppearance();
  setInputs(inputs_->inputs());
  showView(0);
}

QString ExplorePage::id() const { return QStringLiteral("explore"); }

QString ExplorePage::title() const { return tr("Explore"); }

QString ExplorePage::subtitle() const {
  return tr("Attention as an RNN, step by step on real numbers: the prefix scan, the recurrent cell, Figure 1, "
            "linear attention and the state each family keeps");
}

QIcon ExplorePage::icon() const { return glyphIcon(Glyph::explore); }

void ExplorePage::restoreSession(const Settings& settings) {
  if (const std::optional<ExploreInputChoices> choices = loadExploreInputs(settings)) inputs_->setChoices(*choices);
}

void ExplorePage::saveSession(Settings& settings) const { saveExploreInputs(settings, inputs_->choices()); }

ExploreView& ExplorePage::currentView() const { return *views_[qMax(0, viewStack_->currentIndex())]; }

void ExplorePage::showView(int index) {
  if (index < 0 || index >= views_.size()) return;
  // The keys stay with the page: hiding the view that has them would hand them to the next widget.
  const QWidget* focus = QApplication::focusWidget();
  const bool keysOnView = !focus || focus == this || (viewStack_->currentWidget() &&
                                                      (focus == viewStack_->currentWidget() ||
                                                       viewStack_->currentWidget()->isAncestorOf(focus)));
  for (ExploreView* view : views_) view->controller().pause();
  {
    const QSignalBlocker blocker(tabs_);
    tabs_->setCurrentIndex(index);
  }
  viewStack_->setCurrentIndex(index);
  settingsStack_->setCurrentIndex(index);
  // Only the shown view and its settings count for the page's size.
  for (QStackedWidget* stack : {settingsStack_, viewStack_})
    for (int i = 0; i < stack->count(); ++i)
      stack->widget(i)->setSizePolicy(i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored,
                                      i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored);
  stepBar_->setController(&views_[index]->controller());
  formula_->setLitTerms({});
  if (isVisible() && keysOnView) views_[index]->setFocus(Qt::OtherFocusReason);
  refreshPresentation();
}

void ExplorePage::setShowAhead(bool on) {
  {
    const QSignalBlocker blocker(showAheadBox_);
    showAheadBox_->setChecked(on);
  }
  scan_->setShowAhead(on);
  cell_->setShowAhead(on);
}

bool ExplorePage::showAhead() const { return showAheadBox_->isChecked(); }

void ExplorePage::setAnswerWithheld(bool withheld) {
  for (ExploreView* view : views_) view->setAnswerWithheld(withheld);
}

void ExplorePage::setLessonShown(bool shown) {
  lessonShown_ = shown;
  fitShortScreen();
}

// On a short screen in presenter mode a lesson needs every line for its stage: its scenes choose
// the view and its settings (the keys 1 to 3 still switch views), and the cell's notices repeat the
// formula beside it.
void ExplorePage::fitShortScreen() {
  const bool shortPage = height() < kShortPageLines * fontMetrics().lineSpacing();
  const bool compact = lessonShown_ && Appearance::instance().presenterMode() && shortPage;
  viewRow_->setVisible(!compact);
  cell_->setNoticesShown(!compact || formula_->isHidden());
}

void ExplorePage::resizeEvent(QResizeEvent* event) {
  Page::resizeEvent(event);
  fitShortScreen();
}

void ExplorePage::setControlsShown(bool shown) {
  {
    const QSignalBlocker blocker(controlsToggle_);
    controlsToggle_->setChecked(shown);
  }
  controlsToggle_->setText(shown ? tr("Controls ▴") : tr("Controls ▾"));
  inputs_->setVisible(shown);
  settingsStack_->setVisible(shown);
  for (QWidget* button : exportButtons_) button->setVisible(shown);
}

void ExplorePage::showEvent(QShowEvent* event) {
  Page::showEvent(event);
  // Arriving on the page, the arrows and Space work at once, without a click on the drawing.
  currentView().setFocus(Qt::OtherFocusReason);
}

void ExplorePage::setInputs(const ExploreInputs& inputs) {
  for (ExploreView* view : views_) view->setInputs(inputs);
  refreshPresentation();
  emit statusMessage(tr("Inputs: %1 tokens, %2").arg(inputs.tokens()).arg(inputs.origin));
}

void ExplorePage::refreshPresentation() {
  const ExploreView& view = currentView();
  stepBar_->setStepNoun(view.stepNoun());
  caption_->setText(view.caption());
  formula_->setHtml(view.formulaHtml());
  QMetaObject::invokeMethod(this, &ExplorePage::fitFormula, Qt::QueuedConnection);  // once the layout has settled
}

bool ExplorePage::eventFilter(QObject* watched, QEvent* event) {
  if (watched == stage_ && event->type() == QEvent::Resize)
    QMetaObject::invokeMethod(this, &ExplorePage::fitFormula, Qt::QueuedConnection);
  // In the inputs' spin boxes Left and Right still step the view (a spin box's few digits need no
  // cursor keys; Up and Down change its number), and Enter hands the keys back to the view.
  if (qobject_cast<QAbstractSpinBox*>(watched) &&
      (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
    const auto* key = static_cast<QKeyEvent*>(event);
    const bool arrow = key->modifiers() == Qt::NoModifier && (key->key() == Qt::Key_Left || key->key() == Qt::Key_Right);
    if (arrow && event->type() == QEvent::ShortcutOverride) {
      event->ignore();  // not taken by the spin box: the page's shortcut fires
      return true;
    }
    if (event->type() == QEvent::KeyPress && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter))
      QMetaObject::invokeMethod(this, [this] { currentView().setFocus(Qt::OtherFocusReason); }, Qt::QueuedConnection);
  }
  return Page::eventFilter(watched, event);
}

// The narrowest the current view can be without a horizontal scroll bar: the widest of its
// drawings' minimum widths plus what the view puts around them, or its own minimum.
int ExplorePage::viewMinimumWidth() const {
  const QWidget& view = currentView();
  int needed = view.minimumSizeHint().width();
  for (const QScrollArea* area : view.findChildren<QScrollArea*>()) {
    if (area->isHidden() || !area->widget()) continue;
    const int around = std::max(0, view.width() - area->viewport()->width());
    needed = std::max(needed, area->widget()->minimumSizeHint().width() + around);
  }
  return needed;
}

// Decided on the stage's width, which does not depend on the formula, so folding cannot oscillate.
void ExplorePage::fitFormula() {
  if (stage_->isVisible()) scan_->setRoomWidth(stage_->width());
  const int spacing = static_cast<QGridLayout*>(stage_->layout())->horizontalSpacing();
  const int formulaWidth = std::max(formula_->minimumWidth(), formula_->sizeHint().width());
  // Only once laid out on screen: before, the sizes are placeholders.
  // Folded, it comes back only if the page's own minimum leaves it room: showing it must never
  // push the window wider than it is.
  const bool fold = stage_->isVisible() &&
                    (viewMinimumWidth() + spacing + formulaWidth > stage_->width() ||
                     (formulaFolded_ && layout()->minimumSize().width() + spacing + formulaWidth > width()));
  if (fold == formulaFolded_) return;
  formulaFolded_ = fold;
  if (!fold) {
    const QSignalBlocker blocker(formulaToggle_);
    formulaToggle_->setChecked(false);
  }
  showFormula();
}

void ExplorePage::showFormula() {
  // Folded, the button takes the check box's place in the row, so the row is no wider.
  formulaToggle_->setVisible(formulaFolded_ && formulaBox_->isChecked());
  formulaBox_->setVisible(!formulaToggle_->isVisible());
  formulaToggle_->setText(formulaToggle_->isChecked() ? tr("Formula \u25c2") : tr("Formula \u25b8"));
  formula_->setVisible(formulaBox_->isChecked() && (!formulaFolded_ || formulaToggle_->isChecked()));
  fitShortScreen();
}

QString ExplorePage::caption() const { return caption_->text(); }

QString ExplorePage::formulaHtml() const { return formula_->html(); }

void ExplorePage::setCaptionsVisible(bool visible) {
  {
    const QSignalBlocker blocker(captionsBox_);
    captionsBox_->setChecked(visible);
  }
  caption_->setVisible(visible);
}

bool ExplorePage::captionsVisible() const { return !caption_->isHidden(); }

void ExplorePage::applyAppearance() {
  // Presenter mode gives the diagram the screen: the controls fold away until asked for.
  const bool presenter = Appearance::instance().presenterMode();
  if (presenter != presenterLayout_) {
    presenterLayout_ = presenter;
    setControlsShown(!presenter);
  }
  fitShortScreen();
  caption_->setFont(scaledFont(QApplication::font(), kCaptionFontScale));
  const QFontMetrics metrics(caption_->font());
  caption_->setMinimumHeight(2 * metrics.lineSpacing() + 8);
  caption_->setStyleSheet(QStringLiteral("QLabel#exploreCaption { padding: 4px 10px; border-left: 4px solid %1; }")
                              .arg(exploreColors().result.name()));
}

void ExplorePage::exportCurrentView(const QString& path, ExportFormat format) { exportView(*stage_, path, format); }

QStringList ExplorePage::exportAnimationFrames(const QString& folder) {
  return exportFrames(*stage_, currentView().controller(), folder, QStringLiteral("explore-%1").arg(currentView().id()));
}

void ExplorePage::chooseViewExport() {
  const QString name = QStringLiteral("explore-%1-%2.png").arg(currentView().id()).arg(currentView().controller().position());
  const QString path = exportViewInteractively(
      this, name, [this](const QString& file, ExportFormat format) { exportCurrentView(file, format); });
  if (!path.isEmpty()) emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

void ExplorePage::chooseFramesExport() {
  const QStringList files = exportFramesInteractively(this, [this](const QString& folder) { return exportAnimationFrames(folder); });
  if (!files.isEmpty())
    emit statusMessage(tr("Saved %1 frames in %2").arg(files.size()).arg(QDir::toNativeSeparators(QFileInfo(files.first()).absolutePath())));
}

}  // namespace aaren::ui
