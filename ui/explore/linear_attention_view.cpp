#include "ui/explore/linear_attention_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSpinBox>
#include <QStackedWidget>
#include <algorithm>
#include <cmath>
#include <span>

#include "core/attention/linear_attention.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/explore/explore_style.hpp"
#include "ui/explore/linear_memory_view.hpp"

namespace aaren::ui {

namespace {

constexpr int kDefaultKeyDim = 4;
constexpr int kDefaultFavorFeatures = 16;
constexpr unsigned kQueryKeySeed = 7;
constexpr int kFavorDraws = 8;
const std::vector<int> kFavorFeatureCounts{2, 4, 8, 16, 32, 64, 128, 256, 512};

QString mapName(FeatureMapKind kind) {
  switch (kind) {
    case FeatureMapKind::elu_plus_one: return QObject::tr("elu + 1");
    case FeatureMapKind::relu: return QObject::tr("relu");
    case FeatureMapKind::favor: return QObject::tr("FAVOR+");
  }
  return {};
}

QString vector(const std::vector<double>& values) { return formatVector(std::span<const double>(values), 3); }

// A reference drawn level across the chart's M columns, 0 to `last`.
void addLevelLine(ChartPanel& panel, const QString& name, double value, qreal last, const QColor& color,
                  Qt::PenStyle style = Qt::SolidLine) {
  QLineSeries* line = panel.addLineSeries(name, color);
  setSeriesData(line, {QPointF(0, value), QPointF(last, value)});
  QPen pen = line->pen();
  pen.setStyle(style);
  line->setPen(pen);
}

}  // namespace

LinearAttentionView::LinearAttentionView(QWidget* parent)
    : ExploreView(QStringLiteral("linear"), tr("Linear attention"), parent), mapBox_(new QComboBox(settings())),
      featuresBox_(new QSpinBox(settings())), keyDimBox_(new QSpinBox(settings())), chartBox_(new QComboBox(settings())),
      memory_(new LinearMemoryView(this)), charts_(new QStackedWidget(this)), outputChart_(new ChartPanel(QString(), charts_)),
      errorChart_(new ChartPanel(QString(), charts_)), stateChart_(new ChartPanel(QString(), charts_)) {
  mapBox_->setObjectName(QStringLiteral("linearFeatureMap"));
  for (const FeatureMapKind kind : {FeatureMapKind::elu_plus_one, FeatureMapKind::relu, FeatureMapKind::favor})
    mapBox_->addItem(mapName(kind), int(kind));
  mapBox_->setToolTip(tr("phi, the feature map that replaces softmax's exp(q·k) by phi(q)·phi(k): elu + 1 (the "
                         "paper's), relu, or FAVOR+'s M positive random features, whose product is exp(q·k) on "
                         "average"));
  featuresBox_->setObjectName(QStringLiteral("linearFeatures"));
  featuresBox_->setRange(1, 1024);
  featuresBox_->setValue(kDefaultFavorFeatures);
  featuresBox_->setToolTip(tr("M, FAVOR+'s random features: S holds M x d_v numbers, and the error against softmax "
                              "falls as M grows"));
  keyDimBox_->setObjectName(QStringLiteral("linearKeyDim"));
  keyDimBox_->setRange(1, 8);
  keyDimBox_->setValue(kDefaultKeyDim);
  keyDimBox_->setToolTip(tr("d_k, the numbers of each token's query and key (drawn at random, seed %1); the values "
                            "are the page's").arg(kQueryKeySeed));
  chartBox_->setObjectName(QStringLiteral("linearChart"));
  chartBox_->addItem(tr("Output per token"));
  chartBox_->addItem(tr("Error against M"));
  chartBox_->addItem(tr("State against M"));
  QHBoxLayout& row = settingsRow();
  const auto labelled = [&](const QString& text, QWidget* field) {
    auto* label = new QLabel(text, settings());
    label->setBuddy(field);
    row.addWidget(label);
    row.addWidget(field);
  };
  labelled(tr("phi"), mapBox_);
  labelled(tr("M"), featuresBox_);
  labelled(tr("d_k"), keyDimBox_);
  labelled(tr("Chart"), chartBox_);
  row.addStretch(1);

  // Each chart keeps its own axes: the output's tokens, and M as labelled columns for the other two.
  outputChart_->setObjectName(QStringLiteral("linearOutputChart"));
  outputChart_->setAxisTitles(tr("token"), tr("output, first number"));
  outputChart_->setPlaceholderText(tr("Token 1 arrives with →"));
  errorChart_->setObjectName(QStringLiteral("linearErrorChart"));
  errorChart_->setAxisTitles(tr("FAVOR+ features M"), tr("mean |error|"));
  errorChart_->setYAxisOrigin(AxisOrigin::zero);
  stateChart_->setObjectName(QStringLiteral("linearStateChart"));
  stateChart_->setAxisTitles(tr("FAVOR+ features M"), tr("numbers"));
  stateChart_->setYAxisOrigin(AxisOrigin::zero);
  AxisLabels labels;
  for (int i = 0; i < int(kFavorFeatureCounts.size()); ++i)
    labels << qMakePair(qreal(i), QString::number(kFavorFeatureCounts[std::size_t(i)]));
  for (ChartPanel* chart : {errorChart_, stateChart_}) chart->setXAxisLabels(labels);
  for (ChartPanel* chart : {outputChart_, errorChart_, stateChart_}) {
    chart->setLegendShown(true);
    charts_->addWidget(chart);
  }
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(8);
  layout->addWidget(memory_, 2);
  layout->addWidget(charts_, 3);

  const auto rebuildNow = [this] { rebuild(); };
  connect(mapBox_, &QComboBox::currentIndexChanged, this, rebuildNow);
  connect(featuresBox_, &QSpinBox::valueChanged, this, rebuildNow);
  connect(keyDimBox_, &QSpinBox::valueChanged, this, &LinearAttentionView::inputsChanged);
  connect(chartBox_, &QComboBox::currentIndexChanged, this, &LinearAttentionView::showPosition);
  connect(&controller(), &StepController::positionChanged, this, &LinearAttentionView::showPosition);
  connect(&Appearance::instance(), &Appearance::changed, this, &LinearAttentionView::showPosition);
}

QString LinearAttentionView::stepNoun() const { return tr("token"); }

FeatureMapOptions LinearAttentionView::featureMap() const {
  FeatureMapOptions options;
  options.kind = FeatureMapKind(mapBox_->currentData().toInt());
  options.features = featuresBox_->value();
  return options;
}

void LinearAttentionView::setFeatureMap(FeatureMapKind kind, int features) {
  {
    const QSignalBlocker mapBlocker(mapBox_), featuresBlocker(featuresBox_);
    mapBox_->setCurrentIndex(mapBox_->findData(int(kind)));
    featuresBox_->setValue(features);
  }
  rebuild();
}

int LinearAttentionView::keyDim() const { return keyDimBox_->value(); }

void LinearAttentionView::setChart(Chart chart) { chartBox_->setCurrentIndex(int(chart)); }

LinearAttentionView::Chart LinearAttentionView::chart() const { return Chart(chartBox_->currentIndex()); }

ChartPanel* LinearAttentionView::chartPanel() const { return qobject_cast<ChartPanel*>(charts_->currentWidget()); }

double LinearAttentionView::mapError(FeatureMapKind kind) const {
  return kind == FeatureMapKind::relu ? reluError_ : eluError_;
}

void LinearAttentionView::inputsChanged() {
  // The error chart's references depend on the tokens and d_k only, not on the map chosen.
  if (inputs().tokens() > 0) {
    FeatureMapOptions elu, relu;
    relu.kind = FeatureMapKind::relu;
    eluError_ = LinearRun(inputs(), elu, keyDim(), kQueryKeySeed).meanError();
    reluError_ = LinearRun(inputs(), relu, keyDim(), kQueryKeySeed).meanError();
    favor_ = favorApproximation(inputs(), keyDim(), kQueryKeySeed, kFavorFeatureCounts, kFavorDraws);
  }
  rebuild();
}

void LinearAttentionView::rebuild() {
  featuresBox_->setEnabled(featureMap().kind == FeatureMapKind::favor);
  if (inputs().tokens() == 0) return;
  run_ = LinearRun(inputs(), featureMap(), keyDim(), kQueryKeySeed);
  controller().setCount(run_.tokens());
  showPosition();
}

void LinearAttentionView::showPosition() {
  const int t = std::min(controller().position(), run_.tokens());
  memory_->show(&run_, t);
  charts_->setCurrentIndex(int(chart()));
  switch (chart()) {
    case Chart::output: drawOutputChart(t); break;
    case Chart::error: drawErrorChart(); break;
    case Chart::state: drawStateChart(); break;
  }
  emit presentationChanged();
}

void LinearAttentionView::drawOutputChart(int token) {
  ChartPanel* panel = outputChart_;
  panel->removeAllSeries();
  panel->setTitle(tr("Output vs. softmax"));
  if (token == 0) return;
  const ExploreColors colors = exploreColors();
  QList<QPointF> linear, exact, error;
  for (int t = 1; t <= token; ++t) {
    const LinearTokenFrame& f = run_.frame(t);
    linear << QPointF(t, f.y.front());
    exact << QPointF(t, f.softmax.front());
    error << QPointF(t, f.error);
  }
  // Every token's place on the axis from the first step, so that the curves grow into it.
  QLineSeries* range = panel->addLineSeries(QStringLiteral("tokens"), Qt::transparent);
  setSeriesData(range, {QPointF(1, 0), QPointF(run_.tokens(), 0)});
  panel->setInLegend(range, false);
  setSeriesData(panel->addLineSeries(tr("linear attention (%1)").arg(mapName(featureMap().kind)),
                                      modelColor(ModelKind::linear)),
                linear);
  // A lesson's open question ("is it softmax?") keeps the answer back.
  if (!answerWithheld()) {
    setSeriesData(panel->addLineSeries(tr("exact softmax"), colors.text), exact);
    QScatterSeries* errors = panel->addScatterSeries(tr("error"), colors.wrong);
    setSeriesData(errors, error);
  }
}

void LinearAttentionView::drawErrorChart() {
  ChartPanel* panel = errorChart_;
  panel->removeAllSeries();
  panel->setTitle(tr("Error vs. softmax"));
  const qreal last = qreal(kFavorFeatureCounts.size() - 1);
  QList<QPointF> favor;
  for (int i = 0; i < int(favor_.size()); ++i) favor << QPointF(i, favor_[std::size_t(i)].meanError);
  setSeriesData(panel->addLineSeries(tr("FAVOR+ (mean of %1 draws)").arg(kFavorDraws), modelColor(ModelKind::linear)),
                favor);
  const ExploreColors colors = exploreColors();
  addLevelLine(*panel, tr("elu + 1"), eluError_, last, colors.muted);
  addLevelLine(*panel, tr("relu"), reluError_, last, colors.right, Qt::DashLine);
  addLevelLine(*panel, tr("Aaren, Transformer: exact"), 0.0, last, colors.aaren);
}

void LinearAttentionView::drawStateChart() {
  ChartPanel* panel = stateChart_;
  panel->removeAllSeries();
  panel->setTitle(tr("State per head, N = %1").arg(run_.tokens()));
  const qreal last = qreal(kFavorFeatureCounts.size() - 1);
  const int dv = run_.valueDim();
  QList<QPointF> linear;
  for (int i = 0; i < int(kFavorFeatureCounts.size()); ++i)
    linear << QPointF(i, double(kFavorFeatureCounts[std::size_t(i)]) * (dv + 1));
  setSeriesData(panel->addLineSeries(tr("linear attention: M d_v + M"), modelColor(ModelKind::linear)), linear);
  const ExploreColors colors = exploreColors();
  addLevelLine(*panel, tr("Transformer's cache: N (d_k + d_v)"), double(run_.cacheNumbers(run_.tokens())), last,
               colors.transformer);
  addLevelLine(*panel, tr("Aaren, exact: 2 + d_v"), 2.0 + dv, last, colors.aaren);
}

QString LinearAttentionView::caption() const {
  if (run_.tokens() == 0) return {};
  const int t = controller().position();
  const QString map = featureMap().kind == FeatureMapKind::favor
                          ? tr("FAVOR+ with M = %1 features").arg(run_.features())
                          : mapName(featureMap().kind);
  if (t == 0)
    return tr("Linear attention with φ = %1: S (%2 × %3) and z (%2) start empty and keep their size whatever the "
              "number of tokens. Step forward to add the first token.")
        .arg(map)
        .arg(run_.features())
        .arg(run_.valueDim());
  const LinearTokenFrame& f = run_.frame(t);
  QString text = tr("Token %1 of %2: φ(k) vᵀ is added to S and φ(k) to z; the token's query reads y = %3.")
                     .arg(t)
                     .arg(run_.tokens())
                     .arg(vector(f.y));
  if (!answerWithheld())
    text += tr(" Exact softmax gives %1: an error of %2 (mean over the tokens: %3, with φ = %4).")
                .arg(vector(f.softmax), formatNumber(f.error, 3), formatNumber(run_.meanError(), 3), map);
  return text;
}

QString LinearAttentionView::formulaHtml() const {
  if (run_.tokens() == 0) return {};
  const int t = controller().position();
  QStringList lines{tr("S<sub>i</sub> = S<sub>i−1</sub> + φ(k<sub>i</sub>) v<sub>i</sub><sup>T</sup>"),
                    tr("z<sub>i</sub> = z<sub>i−1</sub> + φ(k<sub>i</sub>)"),
                    tr("y<sub>i</sub> = φ(q<sub>i</sub>)<sup>T</sup> S<sub>i</sub> / (φ(q<sub>i</sub>)<sup>T</sup> "
                       "z<sub>i</sub> + ε)")};
  if (t > 0) {
    const LinearTokenFrame& f = run_.frame(t);
    lines << tr("y<sub>%1</sub> = %2 / %3 = <b>%4</b>")
                 .arg(t)
                 .arg(vector(f.numerator), formatNumber(f.denominator, 4), vector(f.y));
    if (!answerWithheld())
      lines << tr("softmax: <b>%1</b>, error %2").arg(vector(f.softmax), formatNumber(f.error, 3));
  }
  return lines.join(QStringLiteral("<br>"));
}

}  // namespace aaren::ui
