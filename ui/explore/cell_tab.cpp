#include "ui/explore/cell_tab.hpp"

#include <QButtonGroup>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScatterSeries>
#include <QSlider>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QEvent>
#include <cmath>
#include <limits>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/block_view.hpp"
#include "ui/explore/captions.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/formulas.hpp"
#include "ui/explore/softmax_bars.hpp"

namespace aaren::ui {

namespace {

constexpr int kChartSpacing = 4;  // between the cell's charts
constexpr char kSoFar[] = "so far";
constexpr char kToCome[] = "all tokens";
constexpr char kTokenRange[] = "token range";
constexpr char kParallel[] = "parallel";
constexpr char kPrinted[] = "printed";
constexpr char kQuantity[] = "aarenQuantity";
constexpr char kComponent[] = "aarenComponent";
constexpr char kExtent[] = "aarenExtent";

enum Quantity { quantityM, quantityC, quantityA, quantityO, quantityParallel, quantityPrintedA, quantityPrintedO };

ChartPanel* makeChart(const QString& title, const QString& yTitle, QWidget* parent) {
  auto* chart = new ChartPanel(title, parent);
  chart->setAxisTitles(QObject::tr("token k"), yTitle);
  chart->setLegendShown(false);
  // Step 0, before the first token: what comes, not "No data yet" (a lesson's question may stop here).
  chart->setPlaceholderText(QObject::tr("Token 1 arrives with \u2192"));
  return chart;
}

QColor componentColor(int component) {
  const ExploreColors c = exploreColors();
  const QColor colors[] = {c.result, c.left, c.right};
  return colors[component % 3];
}

QColor faded(QColor color) {
  color.setAlpha(90);
  return color;
}

}  // namespace

CellTab::CellTab(QWidget* parent)
    : ExploreView(QStringLiteral("cell"), tr("Cell"), parent), modeGroup_(new QButtonGroup(this)),
      blockSlider_(new QSlider(Qt::Horizontal, settings())), blockLabel_(new QLabel(settings())),
      startBox_(new QComboBox(settings())),
      typoBox_(new QCheckBox(tr("Printed update (erratum 2)"), settings())), lowScores_(new QPushButton(tr("Scores below \u2212104"), settings())),
      stack_(new QStackedWidget(this)), notice_(new QLabel(this)),
      printedNotice_(new QLabel(this)),
      mChart_(makeChart(tr("m\u2096 running maximum"), QStringLiteral("m"), this)),
      cChart_(makeChart(tr("c\u2096 = \u03a3 e^(s \u2212 m\u2096)"), QStringLiteral("c"), this)),
      aChart_(makeChart(tr("a\u2096 = \u03a3 e^(s \u2212 m\u2096) v"), QStringLiteral("a"), this)),
      oChart_(makeChart(tr("o\u2096 = a\u2096 / c\u2096"), QStringLiteral("o"), this)), blockView_(new BlockView(this)),
      bars_(new SoftmaxBars(this)) {
  auto* tokenMode = new QRadioButton(tr("Token by token"), settings());
  auto* blockMode = new QRadioButton(tr("Block by block"), settings());
  tokenMode->setObjectName(QStringLiteral("cellTokenMode"));
  blockMode->setObjectName(QStringLiteral("cellBlockMode"));
  tokenMode->setChecked(true);
  modeGroup_->addButton(tokenMode, int(CellMode::tokenByToken));
  modeGroup_->addButton(blockMode, int(CellMode::blockByBlock));
  connect(modeGroup_, &QButtonGroup::idClicked, this, [this](int id) { setMode(CellMode(id)); });
  blockSlider_->setObjectName(QStringLiteral("cellBlockSize"));
  blockSlider_->setRange(1, kMaxExploreTokens);
  blockSlider_->setValue(blockSize_);
  blockSlider_->setMaximumWidth(160);
  blockSlider_->setToolTip(tr("Tokens per block (paper, Appendix A)"));
  connect(blockSlider_, &QSlider::valueChanged, this, &CellTab::setBlockSize);
  startBox_->setObjectName(QStringLiteral("cellStart"));
  startBox_->addItem(tr("m\u2080 = \u2212\u221e (correct)"));
  startBox_->addItem(tr("m\u2080 = 0 (as printed)"));
  connect(startBox_, &QComboBox::currentIndexChanged, this, [this](int index) { setPaperStart(index == 1); });
  typoBox_->setObjectName(QStringLiteral("cellPrintedTypo"));
  typoBox_->setToolTip(tr("The paper prints exp(c\u2096 \u2212 m\u2096) where exp(s\u2096 \u2212 m\u2096) is meant: "
                          "both computed on the same numbers, and where their outputs part"));
  connect(typoBox_, &QCheckBox::toggled, this, &CellTab::setPrintedTypo);
  lowScores_->setObjectName(QStringLiteral("cellLowScores"));
  lowScores_->setToolTip(tr("Random scores around %1: every e^(s \u2212 0) underflows in float32").arg(kUnderflowingScoreShift));
  connect(lowScores_, &QPushButton::clicked, this, &CellTab::lowScoresRequested);

  QHBoxLayout& row = settingsRow();
  row.addWidget(tokenMode);
  row.addWidget(blockMode);
  row.addWidget(blockSlider_);
  row.addWidget(blockLabel_);
  row.addSpacing(16);
  row.addWidget(startBox_);
  row.addWidget(lowScores_);
  row.addSpacing(16);
  row.addWidget(typoBox_);
  row.addStretch(1);

  auto* charts = new QWidget(this);
  auto* grid = new QGridLayout(charts);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(kChartSpacing);
  grid->addWidget(mChart_, 0, 0);
  grid->addWidget(cChart_, 0, 1);
  grid->addWidget(aChart_, 1, 0);
  grid->addWidget(oChart_, 1, 1);
  stack_->addWidget(charts);
  stack_->addWidget(blockView_);
  notice_->setObjectName(QStringLiteral("chartNotice"));
  notice_->setWordWrap(true);
  notice_->hide();
  printedNotice_->setObjectName(QStringLiteral("printedNotice"));
  printedNotice_->setWordWrap(true);
  printedNotice_->setTextFormat(Qt::PlainText);
  printedNotice_->hide();

  // The notices sit above the scroll area: a word-wrapped label inside it would size the content by
  // its preferred height for the width, and scroll bars would appear where the minimum fits.
  for (QLabel* label : {notice_, printedNotice_}) label->setContentsMargins(8, 2, 8, 2);
  // Charts and bars keep readable text: where two rows of charts do not fit, the first row (m_k,
  // c_k) gives way (fitChartRows); only on a screen too small for one row does the content scroll.
  auto* content = new QWidget;
  auto* contentRow = new QHBoxLayout(content);
  contentRow->setContentsMargins(0, 0, 0, 0);
  contentRow->setSpacing(6);
  contentRow->addWidget(stack_, 3);
  contentRow->addWidget(bars_, 2);
  scroll_ = scrolledDrawing(content, QStringLiteral("cellScroll"), this);
  scroll_->installEventFilter(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(notice_);
  layout->addWidget(printedNotice_);
  layout->addWidget(scroll_, 1);
  fitChartSizes();

  connect(&controller(), &StepController::positionChanged, this, &CellTab::showPosition);
  connect(&Appearance::instance(), &Appearance::changed, this, [this] {
    fitChartSizes();
    rebuild();
    emit presentationChanged();
  });
  blockLabel_->setText(tr("b = %1").arg(blockSize_));
  setMode(CellMode::tokenByToken);
}

// Room for a chart's tool row, title, ticks and legend at the current text size: with fewer lines
// (11 in presenter mode, 12 in the window) the axes elide their tick labels.
void CellTab::fitChartSizes() {
  const int lines = Appearance::instance().presenterMode() ? 13 : 14;
  // In lines of the application's text, which the appearance has set by now (a chart's own font
  // may still be the last mode's while the change goes round).
  const int line = QFontMetrics(QApplication::font()).height();
  for (ChartPanel* chart : cellCharts()) chart->setMinimumSize(13 * line, lines * line);
  fitChartRows();
}

// Two rows of charts where they fit at their minimum height; else only the second row, a_k beside
// o_k (the output against the parallel result; both with the printed update in erratum 2): a
// picture cannot be scrolled, so the state's m_k and c_k give way before the content would scroll.
void CellTab::fitChartRows() {
  const bool twoRows = scroll_->height() >= 2 * mChart_->minimumHeight() + kChartSpacing;
  mChart_->setVisible(twoRows);
  cChart_->setVisible(twoRows);
}


bool CellTab::eventFilter(QObject* watched, QEvent* event) {
  if (watched == scroll_ && event->type() == QEvent::Resize) fitChartRows();
  return ExploreView::eventFilter(watched, event);
}

QString CellTab::stepNoun() const { return mode_ == CellMode::tokenByToken ? tr("token") : tr("block"); }

QList<ChartPanel*> CellTab::cellCharts() const { return {mChart_, cChart_, aChart_, oChart_}; }

void CellTab::setNoticesShown(bool shown) {
  if (shown == noticesShown_) return;
  noticesShown_ = shown;
  showPosition();
}

QString CellTab::undefinedNotice() const { return notice_->isHidden() ? QString() : notice_->text(); }

QString CellTab::printedNotice() const { return printedNotice_->isHidden() ? QString() : printedNotice_->text(); }

void CellTab::setMode(CellMode mode) {
  mode_ = mode;
  if (QAbstractButton* button = modeGroup_->button(int(mode))) button->setChecked(true);
  stack_->setCurrentIndex(mode == CellMode::tokenByToken ? 0 : 1);
  blockSlider_->setEnabled(mode == CellMode::blockByBlock);
  startBox_->setEnabled(mode == CellMode::tokenByToken);
  typoBox_->setEnabled(mode == CellMode::tokenByToken);
  rebuild();
  controller().setPosition(0);  // tokens and blocks are different steps
}

void CellTab::setBlockSize(int size) {
  blockSize_ = std::max(1, size);
  {
    const QSignalBlocker blocker(blockSlider_);
    blockSlider_->setValue(blockSize_);
  }
  blockLabel_->setText(tr("b = %1").arg(blockSize_));
  rebuild();
  if (mode_ == CellMode::blockByBlock) controller().setPosition(0);
}

void CellTab::setPrintedTypo(bool on) {
  printedTypo_ = on;
  {
    const QSignalBlocker blocker(typoBox_);
    typoBox_->setChecked(on);
  }
  rebuild();
}

void CellTab::setShowAhead(bool on) {
  showAhead_ = on;
  rebuild();
}

void CellTab::setPaperStart(bool on) {
  paperStart_ = on;
  {
    const QSignalBlocker blocker(startBox_);
    startBox_->setCurrentIndex(on ? 1 : 0);
  }
  rebuild();
}

void CellTab::inputsChanged() {
  // A block holds at most every token; a smaller maximum moves the slider, which sets b.
  blockSlider_->setMaximum(std::max(1, inputs().tokens()));
  rebuild();
}

void CellTab::rebuild() {
  if (inputs().tokens() == 0) return;
  cell_ = CellRun(inputs(), paperStart_ ? 0.0f : -std::numeric_limits<float>::infinity());
  blocks_ = BlockRun(inputs(), blockSize_);
  blockView_->setRun(&blocks_, &inputs().scores);

  // Every chart: the tokens so far; with show ahead, the whole run faint and dashed beneath them.
  const int n = cell_.tokens(), dv = cell_.dv();
  const auto addTrack = [&](ChartPanel* chart, int quantity, int component, const QString& name, const QColor& color) {
    if (showAhead_) {
      QList<QPointF> all;
      for (int k = 1; k <= n; ++k) all << QPointF(k, trackValue(quantity, component, k));
      QLineSeries* toCome = chart->addLineSeries(QLatin1String(kToCome), faded(color));
      QPen pen = toCome->pen();
      pen.setStyle(Qt::DashLine);
      toCome->setPen(pen);
      setSeriesData(toCome, all);
    }
    QLineSeries* soFar = chart->addLineSeries(name, color);
    soFar->setPointsVisible(true);
    soFar->setProperty(kQuantity, quantity);
    soFar->setProperty(kComponent, component);
  };
  for (ChartPanel* chart : cellCharts()) chart->removeAllSeries();
  addTrack(mChart_, quantityM, 0, QLatin1String(kSoFar), componentColor(0));
  addTrack(cChart_, quantityC, 0, QLatin1String(kSoFar), componentColor(0));
  for (int j = 0; j < dv; ++j) {
    const QString suffix = dv > 1 ? tr(" [%1]").arg(j + 1) : QString();
    addTrack(aChart_, quantityA, j, QLatin1String(kSoFar) + suffix, componentColor(j));
    addTrack(oChart_, quantityO, j, QLatin1String(kSoFar) + suffix, componentColor(j));
    if (printedTypo_) {
      addTrack(aChart_, quantityPrintedA, j, QLatin1String(kPrinted) + suffix, exploreColors().wrong);
      addTrack(oChart_, quantityPrintedO, j, QLatin1String(kPrinted) + suffix, exploreColors().wrong);
    }
    QScatterSeries* parallel = oChart_->addScatterSeries(QLatin1String(kParallel) + suffix, exploreColors().complete);
    parallel->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    parallel->setProperty(kQuantity, int(quantityParallel));
    parallel->setProperty(kComponent, j);
  }
  // Without show ahead, an invisible line from token 1 to token N keeps the x axis still while
  // the tokens arrive; it sits at token 1's value, which is shown first, so it gives nothing away.
  if (!showAhead_)
    for (ChartPanel* chart : cellCharts())
      chart->addLineSeries(QLatin1String(kTokenRange), Qt::transparent)->setProperty(kExtent, true);
  for (ChartPanel* chart : cellCharts())
    for (QXYSeries* series : chart->dataSeries())
      if (series->name() == QLatin1String(kToCome) || series->name() == QLatin1String(kTokenRange))
        chart->setInLegend(series, false);
  oChart_->setLegendShown(true);
  aChart_->setLegendShown(printedTypo_);

  controller().setCount(mode_ == CellMode::tokenByToken ? n : int(blocks_.frames().size()));
  showPosition();
}

float CellTab::trackValue(int quantity, int component, int token) const {
  const CellTraceRow<float>& row = cell_.row(token);
  switch (quantity) {
    case quantityM: return row.m;
    case quantityC: return row.c;
    case quantityA: return row.a[std::size_t(component)];
    case quantityO: return row.o[std::size_t(component)];
    case quantityPrintedA: return cell_.printedUpdate()[std::size_t(token - 1)].a_printed[std::size_t(component)];
    case quantityPrintedO: return cell_.printedUpdate()[std::size_t(token - 1)].o_printed[std::size_t(component)];
    default: return cell_.conventional(token)[std::size_t(component)];
  }
}

void CellTab::fillCharts(int token) {
  for (ChartPanel* chart : cellCharts())
    for (QXYSeries* series : chart->dataSeries()) {
      if (series->property(kExtent).isValid()) {
        const QXYSeries* first = chart->dataSeries().constFirst();
        const float y = trackValue(first->property(kQuantity).toInt(), first->property(kComponent).toInt(), 1);
        setSeriesData(series, token > 0 ? QList<QPointF>{{1.0, y}, {qreal(cell_.tokens()), y}} : QList<QPointF>{});
        continue;
      }
      const QVariant quantity = series->property(kQuantity);
      if (!quantity.isValid()) continue;
      const int component = series->property(kComponent).toInt();
      QList<QPointF> points;
      for (int k = 1; k <= token; ++k) points << QPointF(k, trackValue(quantity.toInt(), component, k));
      setSeriesData(series, points);
    }
}

void CellTab::showPosition() {
  if (inputs().tokens() == 0) return;
  const int position = controller().position();
  SoftmaxBars::Content content;
  content.tokens = cell_.tokens();
  content.scores = inputs().scores;
  if (mode_ == CellMode::tokenByToken) {
    fillCharts(position);
    if (position > 0) {
      content.weights = cell_.prefixWeights(position);
      content.highlightFrom = content.highlightTo = position - 1;
      content.recurrentName = tr("recurrent  a\u2096 / c\u2096");
      content.recurrent = cell_.row(position).o;
      content.conventional = cell_.conventional(position);
    }
    const int undefined = cell_.firstUndefinedOutput();
    // The banner states the erratum's result, which a lesson may ask the class to predict.
    const bool showNotice = undefined > 0 && position >= undefined && !answerWithheld();
    notice_->setText(showNotice ? tr("o\u2096 is NaN from token %1 on: every e^(s \u2212 m\u2096) underflowed to 0 in float32, "
                                     "so c\u2096 = 0 and o\u2096 = 0 / 0. The paper's start m\u2080 = 0 fails here; "
                                     "m\u2080 = \u2212\u221e does not.")
                                      .arg(undefined)
                                : QString());
    notice_->setVisible(showNotice && noticesShown_);
    showPrintedNotice(position);
  } else {
    printedNotice_->hide();
    blockView_->setBlock(position);
    notice_->hide();
    content.blockSize = blocks_.blockSize();
    if (position > 0) {
      const BlockFrame& frame = blocks_.frames()[std::size_t(position - 1)];
      content.weights = blocks_.prefixWeights(position);
      content.highlightFrom = frame.first;
      content.highlightTo = frame.last;
      content.recurrentName = tr("block by block  w / u");
      content.recurrent = frame.o;
      content.conventional = cell_.conventional(frame.last + 1);
    }
  }
  content.weightsWithheld = answerWithheld();
  bars_->setContent(std::move(content));
  emit presentationChanged();
}

void CellTab::showPrintedNotice(int token) {
  printedNotice_->setVisible(printedTypo_ && token > 0 && noticesShown_);
  if (printedNotice_->isHidden()) return;
  const PrintedUpdateRow<float>& row = cell_.printedUpdate()[std::size_t(token - 1)];
  QString text = tr("Token %1: as printed, v\u2096 enters with exp(c\u2096 \u2212 m\u2096) = %2; meant is exp(s\u2096 \u2212 m\u2096) = %3. "
                    "o\u2096 = %4 as printed, %5 as meant.")
                     .arg(token)
                     .arg(formatNumber(row.printed), formatNumber(row.meant), formatVector(row.o_printed),
                          formatVector(row.o_meant));
  const int parts = cell_.printedPartsAt();
  text += QLatin1Char(' ') + (parts == 0 ? tr("On these numbers they never part.")
                                         : token >= parts ? tr("They parted at token %1.").arg(parts)
                                                          : tr("They still agree."));
  printedNotice_->setText(text);
}

QString CellTab::caption() const {
  if (inputs().tokens() == 0) return {};
  const int position = controller().position();
  return mode_ == CellMode::tokenByToken ? cellCaption(cell_, position, answerWithheld()) : blockCaption(blocks_, position);
}

QString CellTab::formulaHtml() const {
  if (inputs().tokens() == 0) return {};
  const int position = controller().position();
  if (mode_ == CellMode::blockByBlock) return blockFormula(blocks_, position);
  return printedTypo_ ? printedUpdateFormula(cell_, position) : cellFormula(cell_, position);
}

}  // namespace aaren::ui
