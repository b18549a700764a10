#include "ui/explore/cell_tab.hpp"

#include <QButtonGroup>
#include <QChart>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPushButton>
#include <QRadioButton>
#include <QScatterSeries>
#include <QSlider>
#include <QStackedWidget>
#include <QVBoxLayout>
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

constexpr char kSoFar[] = "so far";
constexpr char kToCome[] = "all tokens";
constexpr char kParallel[] = "parallel softmax";
constexpr char kQuantity[] = "aarenQuantity";
constexpr char kComponent[] = "aarenComponent";

enum Quantity { quantityM, quantityC, quantityA, quantityO, quantityParallel };

ChartPanel* makeChart(const QString& title, const QString& yTitle, QWidget* parent) {
  auto* chart = new ChartPanel(title, parent);
  chart->setAxisTitles(QObject::tr("token k"), yTitle);
  chart->setMinimumSize(180, 140);
  chart->chart()->legend()->hide();
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
    : ExploreView(QStringLiteral("cell"), tr("Recurrent cell"), parent), modeGroup_(new QButtonGroup(this)),
      blockSlider_(new QSlider(Qt::Horizontal, settings())), blockLabel_(new QLabel(settings())),
      startBox_(new QComboBox(settings())), lowScores_(new QPushButton(tr("Scores below \u2212104"), settings())),
      stack_(new QStackedWidget(this)), notice_(new QLabel(this)),
      mChart_(makeChart(tr("m\u2096: the running maximum"), QStringLiteral("m"), this)),
      cChart_(makeChart(tr("c\u2096: sum of e^(s \u2212 m\u2096)"), QStringLiteral("c"), this)),
      aChart_(makeChart(tr("a\u2096: weighted sum of values"), QStringLiteral("a"), this)),
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
  row.addStretch(1);

  auto* charts = new QWidget(this);
  auto* grid = new QGridLayout(charts);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(4);
  grid->addWidget(mChart_, 0, 0);
  grid->addWidget(cChart_, 0, 1);
  grid->addWidget(aChart_, 1, 0);
  grid->addWidget(oChart_, 1, 1);
  stack_->addWidget(charts);
  stack_->addWidget(blockView_);
  notice_->setObjectName(QStringLiteral("chartNotice"));
  notice_->setWordWrap(true);
  notice_->hide();

  auto* left = new QVBoxLayout;
  left->setSpacing(4);
  left->addWidget(notice_);
  left->addWidget(stack_, 1);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);
  layout->addLayout(left, 3);
  layout->addWidget(bars_, 2);

  connect(&controller(), &StepController::positionChanged, this, &CellTab::showPosition);
  connect(&Appearance::instance(), &Appearance::changed, this, [this] {
    rebuild();
    emit presentationChanged();
  });
  blockLabel_->setText(tr("b = %1").arg(blockSize_));
  setMode(CellMode::tokenByToken);
}

QString CellTab::stepNoun() const { return mode_ == CellMode::tokenByToken ? tr("token") : tr("block"); }

QList<ChartPanel*> CellTab::cellCharts() const { return {mChart_, cChart_, aChart_, oChart_}; }

QString CellTab::undefinedNotice() const { return notice_->isHidden() ? QString() : notice_->text(); }

void CellTab::setMode(CellMode mode) {
  mode_ = mode;
  if (QAbstractButton* button = modeGroup_->button(int(mode))) button->setChecked(true);
  stack_->setCurrentIndex(mode == CellMode::tokenByToken ? 0 : 1);
  blockSlider_->setEnabled(mode == CellMode::blockByBlock);
  startBox_->setEnabled(mode == CellMode::tokenByToken);
  rebuild();
}

void CellTab::setBlockSize(int size) {
  blockSize_ = std::max(1, size);
  {
    const QSignalBlocker blocker(blockSlider_);
    blockSlider_->setValue(blockSize_);
  }
  blockLabel_->setText(tr("b = %1").arg(blockSize_));
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

  // Every chart: the whole run faint and dashed (what is to come), the tokens so far on top.
  const int n = cell_.tokens(), dv = cell_.dv();
  const auto addTrack = [&](ChartPanel* chart, int quantity, int component, const QString& name, const QColor& color) {
    QList<QPointF> all;
    for (int k = 1; k <= n; ++k) all << QPointF(k, trackValue(quantity, component, k));
    QLineSeries* toCome = chart->addLineSeries(QLatin1String(kToCome), faded(color));
    QPen pen = toCome->pen();
    pen.setStyle(Qt::DashLine);
    toCome->setPen(pen);
    setSeriesData(toCome, all);
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
    QScatterSeries* parallel = oChart_->addScatterSeries(QLatin1String(kParallel) + suffix, exploreColors().complete);
    parallel->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    parallel->setProperty(kQuantity, int(quantityParallel));
    parallel->setProperty(kComponent, j);
  }
  for (ChartPanel* chart : cellCharts())
    for (QXYSeries* series : chart->dataSeries())
      if (series->name() == QLatin1String(kToCome))
        for (QLegendMarker* marker : chart->chart()->legend()->markers(series)) marker->setVisible(false);
  oChart_->chart()->legend()->setVisible(true);

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
    default: return cell_.conventional(token)[std::size_t(component)];
  }
}

void CellTab::fillCharts(int token) {
  for (ChartPanel* chart : cellCharts())
    for (QXYSeries* series : chart->dataSeries()) {
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
    const bool showNotice = undefined > 0 && position >= undefined;
    notice_->setText(showNotice ? tr("o\u2096 is NaN from token %1 on: every e^(s \u2212 m\u2096) underflowed to 0 in float32, "
                                     "so c\u2096 = 0 and o\u2096 = 0 / 0. The paper's start m\u2080 = 0 fails here; "
                                     "m\u2080 = \u2212\u221e does not.")
                                      .arg(undefined)
                                : QString());
    notice_->setVisible(showNotice);
  } else {
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
  bars_->setContent(std::move(content));
  emit presentationChanged();
}

QString CellTab::caption() const {
  if (inputs().tokens() == 0) return {};
  const int position = controller().position();
  return mode_ == CellMode::tokenByToken ? cellCaption(cell_, position) : blockCaption(blocks_, position);
}

QString CellTab::formulaHtml() const {
  if (inputs().tokens() == 0) return {};
  const int position = controller().position();
  return mode_ == CellMode::tokenByToken ? cellFormula(cell_, position) : blockFormula(blocks_, position);
}

}  // namespace aaren::ui
