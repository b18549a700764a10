#include "ui/explore/scan_tab.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QTextDocumentFragment>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/appearance.hpp"
#include "ui/chart_key.hpp"
#include "ui/explore/captions.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/formulas.hpp"
#include "ui/explore/scan_tree_view.hpp"

namespace aaren::ui {

namespace {

constexpr int kMaxTrees = 3;

// The colour the translucent highlighter band shows over the background (scan_tree_paint.cpp).
QColor litOnBackground(const ExploreColors& c) {
  const qreal a = kLitAlpha / 255.0;
  return QColor::fromRgbF(float(c.lit.redF() * a + c.background.redF() * (1 - a)),
                          float(c.lit.greenF() * a + c.background.greenF() * (1 - a)),
                          float(c.lit.blueF() * a + c.background.blueF() * (1 - a)));
}

// The colours of the boxes (the operands named A and B as the formula names them); while boxes are
// lit, the highlighter too: a band with dashes in the text colour, as the boxes show it. Trees that
// leave their numbers out say where they are. Lines break between entries, never inside one.
QString legendHtml(bool lit, bool numbersShown) {
  const ExploreColors c = exploreColors();
  QStringList entries{keyEntryHtml(c.left, QObject::tr("earlier (A)")), keyEntryHtml(c.right, QObject::tr("later (B)")),
                      keyEntryHtml(c.result, QObject::tr("being combined")),
                      keyEntryHtml(c.complete, QObject::tr("whole prefix"))};
  if (lit)
    entries << QStringLiteral("<span style=\"background-color:%1; color:%2\">&nbsp;\u2504\u2504&nbsp;</span>&nbsp;%3")
                   .arg(litOnBackground(c).name(), c.text.name(), unbrokenHtml(QObject::tr("lit: the answer")));
  if (!numbersShown) entries << unbrokenHtml(QObject::tr("numbers: hover a box"));
  return entries.join(QStringLiteral("&nbsp;&nbsp; "));
}

}  // namespace

ScanTab::ScanTab(QWidget* parent)
    : ExploreView(QStringLiteral("scan"), tr("Scan tree"), parent), displayBox_(new QComboBox(settings())),
      errataBox_(new QCheckBox(tr("Errata (as printed)"), settings())), treesLayout_(new QHBoxLayout),
      legend_(new QLabel(this)) {
  displayBox_->setObjectName(QStringLiteral("scanAlgorithm"));
  displayBox_->addItem(tr("Sequential"), int(ScanDisplay::sequential));
  displayBox_->addItem(tr("Hillis\u2013Steele"), int(ScanDisplay::hillisSteele));
  displayBox_->addItem(tr("Brent\u2013Kung"), int(ScanDisplay::brentKung));
  displayBox_->addItem(tr("All three side by side"), int(ScanDisplay::sideBySide));
  displayBox_->setCurrentIndex(displayBox_->findData(int(display_)));
  connect(displayBox_, &QComboBox::currentIndexChanged, this,
          [this] { setDisplay(ScanDisplay(displayBox_->currentData().toInt())); });
  errataBox_->setObjectName(QStringLiteral("scanErrata"));
  errataBox_->setToolTip(tr("The paper's Algorithm 1 loops i = 1..\u2308log\u2082 N\u2309 with offset 2^i and so never "
                            "uses offset 1. Shows which prefixes it gets wrong, beside the corrected loop."));
  connect(errataBox_, &QCheckBox::toggled, this, &ScanTab::setErrata);
  legend_->setObjectName(QStringLiteral("scanLegend"));
  legend_->setTextFormat(Qt::RichText);
  showLegend();
  connect(&Appearance::instance(), &Appearance::changed, this, &ScanTab::showLegend);

  QHBoxLayout& row = settingsRow();
  row.addWidget(new QLabel(tr("Algorithm"), settings()));
  row.addWidget(displayBox_);
  row.addSpacing(12);
  row.addWidget(errataBox_);
  row.addStretch(1);

  treesLayout_->setContentsMargins(0, 0, 0, 0);
  treesLayout_->setSpacing(2);  // each tree pads itself; three side by side need every pixel
  legend_->setAlignment(Qt::AlignCenter);
  legend_->setWordWrap(true);
  legend_->setAutoFillBackground(true);
  legend_->setBackgroundRole(QPalette::Base);
  legend_->setContentsMargins(0, 2, 0, 4);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  // The trees keep their numbers readable; when they need more room than the screen has, they scroll.
  auto* trees = new QWidget;
  trees->setLayout(treesLayout_);
  layout->addWidget(scrolledDrawing(trees, QStringLiteral("scanTreesScroll"), this), 1);
  layout->addWidget(legend_);
  for (int i = 0; i < kMaxTrees; ++i) {
    auto* tree = new ScanTreeView(trees);
    tree->setObjectName(QStringLiteral("scanTree%1").arg(i));
    connect(tree, &ScanTreeView::combineSelected, this, [this, i] {
      focusTree(i);
      emit presentationChanged();
    });
    trees_.push_back(tree);
    treesLayout_->addWidget(tree, 1);
  }
  connect(&controller(), &StepController::positionChanged, this, &ScanTab::showPosition);
  connect(&Appearance::instance(), &Appearance::changed, this, [this] {
    fitNumbers();
    emit presentationChanged();
  });
}

QString ScanTab::stepNoun() const { return tr("step"); }

QList<ScanTreeView*> ScanTab::trees() const {
  QList<ScanTreeView*> shown;
  for (std::size_t i = 0; i < runs_.size(); ++i) shown << trees_[i];
  return shown;
}

void ScanTab::setDisplay(ScanDisplay display) {
  display_ = display;
  {
    const QSignalBlocker blocker(displayBox_);
    displayBox_->setCurrentIndex(displayBox_->findData(int(display)));
  }
  startOver();
}

QString ScanTab::displayName() const { return displayBox_->itemText(displayBox_->findData(int(display_))); }

void ScanTab::setErrata(bool on) {
  errata_ = on;
  {
    const QSignalBlocker blocker(errataBox_);
    errataBox_->setChecked(on);
  }
  displayBox_->setEnabled(!on);
  startOver();
}

// Another algorithm is another sequence of steps: step 3 of one is not step 3 of the other.
void ScanTab::startOver() {
  litRanges_.clear();
  showLegend();
  rebuild();
  controller().setPosition(0);
}

void ScanTab::showLegend() {
  legend_->setText(legendHtml(!litRanges_.isEmpty(), trees_.empty() || trees_.front()->numbersShown()));
}

QString ScanTab::legendText() const {
  return QTextDocumentFragment::fromHtml(legend_->text()).toPlainText().replace(QChar::Nbsp, QLatin1Char(' '));
}

void ScanTab::inputsChanged() { startOver(); }

void ScanTab::setLitRanges(const QList<TokenRange>& ranges) {
  litRanges_ = ranges;
  for (ScanTreeView* tree : trees_) tree->setLitRanges(ranges);
  showLegend();
}

void ScanTab::setShowAhead(bool on) {
  showAhead_ = on;
  for (ScanTreeView* tree : trees_) tree->setShowAhead(on);
  emit presentationChanged();  // the caption's totals depend on it
}

void ScanTab::rebuild() {
  struct Planned {
    ScanMethod method;
    QString title;
  };
  std::vector<Planned> plan;
  if (errata_) {
    plan = {{ScanMethod::hillis_steele_as_printed, tr("As printed: offsets 2, 4, \u2026")},
            {ScanMethod::hillis_steele, tr("Corrected: offsets 1, 2, 4, \u2026")}};
  } else {
    switch (display_) {
      case ScanDisplay::sequential: plan = {{ScanMethod::sequential, methodName(ScanMethod::sequential)}}; break;
      case ScanDisplay::hillisSteele: plan = {{ScanMethod::hillis_steele, methodName(ScanMethod::hillis_steele)}}; break;
      case ScanDisplay::brentKung: plan = {{ScanMethod::brent_kung, methodName(ScanMethod::brent_kung)}}; break;
      case ScanDisplay::sideBySide:
        for (ScanMethod method : {ScanMethod::sequential, ScanMethod::hillis_steele, ScanMethod::brent_kung})
          plan.push_back({method, methodName(method)});
        break;
    }
  }
  for (ScanTreeView* tree : trees_) tree->setRun(nullptr);
  runs_.clear();
  if (inputs().tokens() > 0)
    for (const Planned& planned : plan) runs_.push_back(std::make_unique<ScanRun>(inputs(), planned.method));

  int levels = 0;
  for (const auto& run : runs_) levels = std::max(levels, run->stepCount());
  for (std::size_t i = 0; i < trees_.size(); ++i) {
    ScanTreeView* tree = trees_[i];
    const bool shown = i < runs_.size();
    tree->setVisible(shown);
    if (!shown) continue;
    tree->setRun(runs_[i].get());
    tree->setTitle(plan[i].title);
    // Trees side by side share their row height and rows; stacked errata trees need only their own.
    tree->setLevelRows(errata_ ? runs_[i]->stepCount() : levels);
    tree->setBesideOthers(!errata_);
    tree->setFlagIncomplete(plan[i].method == ScanMethod::hillis_steele_as_printed);
    tree->setLitRanges(litRanges_);
    tree->setShowAhead(showAhead_);
  }
  // The printed loop above the corrected one, column under column: the wrong prefixes sit right
  // above the right ones. Other trees stand side by side (and scroll when they need the room).
  treesLayout_->setDirection(errata_ ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
  fitNumbers();
  focused_ = std::clamp(focused_, 0, std::max(0, int(runs_.size()) - 1));
  controller().setCount(levels);
  showPosition();
}

void ScanTab::resizeEvent(QResizeEvent* event) {
  ExploreView::resizeEvent(event);
  fitNumbers();
}

void ScanTab::setRoomWidth(int width) {
  roomWidth_ = width;
  fitNumbers();
}

void ScanTab::fitNumbers() {
  int needed = 0;
  for (std::size_t i = 0; i < runs_.size(); ++i) needed += trees_[i]->minimumWidthWithNumbers() + treesLayout_->spacing();
  const bool shown = runs_.size() < 2 || errata_ || needed <= std::max(width(), roomWidth_);
  if (!trees_.empty() && trees_.front()->numbersShown() == shown) return;
  for (ScanTreeView* tree : trees_) tree->setNumbersShown(shown);
  showLegend();
}

void ScanTab::focusTree(int index) {
  focused_ = index;
  for (std::size_t i = 0; i < runs_.size(); ++i) trees_[i]->setFocused(runs_.size() > 1 && int(i) == focused_);
}

void ScanTab::showPosition() {
  for (std::size_t i = 0; i < runs_.size(); ++i) trees_[i]->setStep(controller().position());
  focusTree(focused_);
  emit presentationChanged();
}

QString ScanTab::caption() const {
  if (runs_.empty()) return {};
  const int position = controller().position();
  if (errata_) return errataCaption(*runs_[0], *runs_[1], position);
  if (runs_.size() > 1) {
    std::vector<const ScanRun*> runs;
    for (const auto& run : runs_) runs.push_back(run.get());
    return scanComparisonCaption(runs, position, showAhead_);
  }
  return scanCaption(*runs_[0], std::min(position, runs_[0]->stepCount()), showAhead_);
}

QString ScanTab::formulaHtml() const {
  if (runs_.empty()) return {};
  const ScanTreeView* tree = trees_[std::size_t(focused_)];
  return scanFormula(*runs_[std::size_t(focused_)], tree->step(), tree->selectedCombine());
}

}  // namespace aaren::ui
