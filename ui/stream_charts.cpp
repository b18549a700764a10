#include "ui/stream_charts.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/wording/model_names.hpp"
#include "ui/wording/growth_wording.hpp"

namespace aaren::ui {

namespace {

constexpr double kBytesPerMegabyte = 1e6;
constexpr double kMicrosecondsPerSecond = 1e6;

// The notes' names: short, so that a note of three models stays a few short lines.
QString shortName(ModelKind kind) { return kind == ModelKind::linear ? QObject::tr("Linear") : displayName(kind); }
const int kAaren = bench::stream_model_index(ModelKind::aaren);

ChartPanel* makeChart(QWidget* parent, const QString& title, const QString& yTitle) {
  auto* panel = new ChartPanel(title, parent);
  // Short axis titles: the chart title says what is measured, and a projector's 4-chart page leaves
  // the vertical titles little room.
  panel->setAxisTitles(QObject::tr("tokens N"), yTitle);
  panel->setYAxisOrigin(AxisOrigin::zero);
  panel->setPlaceholderText(QObject::tr("Press Start to measure the models"));
  return panel;
}

// One series per model, in kModelKinds order (the samples' index).
void addModelSeries(ChartPanel* panel) {
  // The legends' names (ui/wording/model_names.hpp) are short enough for the three to share one line
  // in a quarter of a 1280 x 720 window: a second line squeezes the plot until its ticks elide.
  for (const ModelKind kind : kModelKinds) panel->addLineSeries(displayName(kind), modelColor(kind));
}

constexpr int kBandAlpha = 60;

// A translucent band between two lines, behind the data and out of the legend, in its line's colour
// in both themes (a new chart theme recolours every series); it follows the chart's Y axis when
// Log Y replaces it.
QAreaSeries* addSpreadBand(ChartPanel* panel, const QColor& color) {
  auto* upper = new QLineSeries;
  auto* lower = new QLineSeries;
  auto* band = new QAreaSeries(upper, lower);
  upper->setParent(band);
  lower->setParent(band);
  const auto style = [band, color] {
    QColor fill = color;
    fill.setAlpha(kBandAlpha);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
  };
  style();
  // Connected after the panel's own restyling, so it runs after it.
  QObject::connect(&Appearance::instance(), &Appearance::changed, band, style);
  QChart* chart = panel->chart();
  chart->addSeries(band);
  // Series are drawn in the order they were added: the data goes back on top.
  for (QXYSeries* series : panel->dataSeries()) {
    chart->removeSeries(series);
    chart->addSeries(series);
  }
  const auto attach = [panel, band] {
    for (QAbstractAxis* axis : band->attachedAxes()) band->detachAxis(axis);
    band->attachAxis(panel->xAxis());
    band->attachAxis(panel->yAxis());
    for (QXYSeries* series : panel->dataSeries()) {
      if (!series->attachedAxes().contains(panel->xAxis())) series->attachAxis(panel->xAxis());
      if (!series->attachedAxes().contains(panel->yAxis())) series->attachAxis(panel->yAxis());
    }
    panel->setInLegend(band, false);  // a re-added series gets new legend entries
  };
  attach();
  QObject::connect(panel, &ChartPanel::logScaleYChanged, band, attach);
  return band;
}

QString tokens(long n) { return QLocale().toString(qlonglong(n)); }
QString fixed(double value, int decimals) { return QLocale().toString(value, 'f', decimals); }

// About three significant digits without an exponent: latencies run from below a microsecond
// to many milliseconds.
QString microseconds(double seconds) {
  const double us = seconds * kMicrosecondsPerSecond;
  return fixed(us, us >= 100 ? 0 : us >= 10 ? 1 : 2);
}

}  // namespace

StreamCharts::StreamCharts(QWidget* parent)
    : memory_(makeChart(parent, QObject::tr("State memory vs. tokens"), QObject::tr("state (MB)"))),
      cumulativeTime_(makeChart(parent, QObject::tr("Cumulative time vs. tokens"), QObject::tr("seconds"))),
      latency_(makeChart(parent, QObject::tr("Per-token latency vs. tokens"), QObject::tr("µs per token"))),
      ratio_(makeChart(parent, QObject::tr("Cumulative time against Aaren's"), QObject::tr("ratio"))) {
  addModelSeries(memory_);
  addModelSeries(cumulativeTime_);
  addModelSeries(latency_);
  // The Transformer's latency grows to many times Aaren's: on a log axis both stay readable.
  latency_->setLogScaleAvailable(true);
  latency_->setLogScaleY(true);
  for (const ModelKind kind : kModelKinds) {
    if (kind != ModelKind::aaren) ratio_->addLineSeries(QObject::tr("%1 / Aaren").arg(shortName(kind)), modelColor(kind));
    cumulativeBands_ << addSpreadBand(cumulativeTime_, modelColor(kind));
    latencyBands_ << addSpreadBand(latency_, modelColor(kind));
  }
  setModels({std::begin(kModelKinds), std::end(kModelKinds)});
  // Aaren's state is a few kilobytes beside megabytes of KV cache: its note names the size.
  memory_->setValueText([](qreal megabytes) { return byteSize(megabytes * kBytesPerMegabyte); });
}

QList<QAreaSeries*> StreamCharts::spreadBands(const ChartPanel* panel) const {
  if (panel == cumulativeTime_) return cumulativeBands_;
  if (panel == latency_) return latencyBands_;
  return {};
}

void StreamCharts::setModels(const std::vector<ModelKind>& kinds) {
  models_ = kinds;
  const auto shown = [&kinds](ModelKind kind) { return std::find(kinds.begin(), kinds.end(), kind) != kinds.end(); };
  int ratio = 0;
  for (const ModelKind kind : kModelKinds) {
    const int k = bench::stream_model_index(kind);
    for (ChartPanel* panel : {memory_, cumulativeTime_, latency_}) {
      panel->dataSeries().at(k)->setVisible(shown(kind));
      panel->setInLegend(panel->dataSeries().at(k), shown(kind));
    }
    for (QAreaSeries* band : {cumulativeBands_.at(k), latencyBands_.at(k)}) band->setVisible(shown(kind));
    if (kind == ModelKind::aaren) continue;
    QXYSeries* series = ratio_->dataSeries().at(ratio++);
    series->setVisible(shown(kind) && shown(ModelKind::aaren));
    ratio_->setInLegend(series, series->isVisible());
  }
}

void StreamCharts::showSamples(const std::vector<bench::StreamSample>& samples) {
  constexpr int kModels = bench::kStreamModels;
  QList<QPointF> memory[kModels], cumulative[kModels], latency[kModels], ratio[kModels];
  QList<QPointF> cumulativeLow[kModels], cumulativeHigh[kModels], latencyLow[kModels], latencyHigh[kModels];
  for (const bench::StreamSample& s : samples) {
    const qreal n = qreal(s.tokens);
    for (int k = 0; k < kModels; ++k) {
      memory[k].append({n, s.state_bytes[k] / kBytesPerMegabyte});
      cumulative[k].append({n, s.cumulative_seconds[k]});
      latency[k].append({n, s.latency_seconds[k] * kMicrosecondsPerSecond});
      cumulativeLow[k].append({n, s.cumulative_low_seconds[k]});
      cumulativeHigh[k].append({n, s.cumulative_high_seconds[k]});
      latencyLow[k].append({n, s.latency_low_seconds[k] * kMicrosecondsPerSecond});
      latencyHigh[k].append({n, s.latency_high_seconds[k] * kMicrosecondsPerSecond});
      if (s.cumulative_seconds[kAaren] > 0) ratio[k].append({n, s.cumulative_seconds[k] / s.cumulative_seconds[kAaren]});
    }
  }
  int ratioSeries = 0;
  for (const ModelKind kind : kModelKinds) {
    const int k = bench::stream_model_index(kind);
    // A model the run did not stream keeps an empty series, hidden by setModels.
    const bool streamed = std::find(models_.begin(), models_.end(), kind) != models_.end();
    const auto data = [streamed](const QList<QPointF>& points) { return streamed ? points : QList<QPointF>(); };
    setSeriesData(memory_->dataSeries().at(k), data(memory[k]));
    setSeriesData(cumulativeTime_->dataSeries().at(k), data(cumulative[k]));
    setSeriesData(latency_->dataSeries().at(k), data(latency[k]));
    setSeriesData(cumulativeBands_.at(k)->lowerSeries(), data(cumulativeLow[k]));
    setSeriesData(cumulativeBands_.at(k)->upperSeries(), data(cumulativeHigh[k]));
    setSeriesData(latencyBands_.at(k)->lowerSeries(), data(latencyLow[k]));
    setSeriesData(latencyBands_.at(k)->upperSeries(), data(latencyHigh[k]));
    if (kind != ModelKind::aaren) setSeriesData(ratio_->dataSeries().at(ratioSeries++), data(ratio[k]));
  }
}

void StreamCharts::showFit(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result) {
  if (result.samples.empty()) {
    for (ChartPanel* panel : all()) panel->setAnnotation({});
    return;
  }
  const bench::StreamSample& last = result.samples.back();
  const int predictedSlope = 2 * options.model.layers * options.model.d_model * int(sizeof(float));
  // Short lines, one per model: the note must leave the plot to the data, in presenter mode too.
  QStringList slopes, exponents, latencies, ratios;
  const bench::GrowthFit* reference = nullptr;
  for (const ModelKind kind : result.kinds) {
    const int k = bench::stream_model_index(kind);
    const bench::GrowthFit& fit = result.fit[k];
    if (!reference && fit.fit_points > 0) reference = &fit;
    slopes << QObject::tr("%1 %2").arg(shortName(kind), fixed(fit.memory_bytes_per_token, 0));
    // The exponent with its range over the runs (core/bench/stream_summary.hpp).
    exponents << QObject::tr("%1: k = %2").arg(shortName(kind), exponentWithRange(fit));
    // The median step and the quartiles of the raw steps around it.
    latencies << QObject::tr("%1: %2 µs (%3–%4)")
                     .arg(shortName(kind), microseconds(last.latency_seconds[k]), microseconds(last.latency_low_seconds[k]),
                          microseconds(last.latency_high_seconds[k]));
    if (kind != ModelKind::aaren && last.cumulative_seconds[kAaren] > 0)
      ratios << QObject::tr("%1 %2×").arg(shortName(kind), fixed(last.cumulative_seconds[k] / last.cumulative_seconds[kAaren], 1));
  }
  const QString newline = QStringLiteral("\n");
  // The KV cache's predicted slope, where the Transformer streamed.
  const bool transformer = bench::streamed(result, ModelKind::transformer);
  memory_->setAnnotation(
      transformer ? QObject::tr("bytes per token (fitted): %1\nKV cache predicted: 2 × layers × d_model × 4 = %2")
                        .arg(slopes.join(QStringLiteral(", ")), tokens(predictedSlope))
                  : QObject::tr("bytes per token (fitted): %1").arg(slopes.join(QStringLiteral(", "))));
  cumulativeTime_->setAnnotation(
      reference ? QObject::tr("time ∝ N^k, N = %1–%2\n%3")
                      .arg(tokens(reference->fit_from_tokens), tokens(reference->fit_to_tokens), exponents.join(newline))
                : exponents.join(newline));
  latency_->setAnnotation(QObject::tr("at N = %1, median (quartiles)\n%2").arg(tokens(last.tokens), latencies.join(newline)));
  ratio_->setAnnotation(ratios.isEmpty() ? QString()
                                         : QObject::tr("at N = %1: %2").arg(tokens(last.tokens), ratios.join(QStringLiteral(", "))));
}

void StreamCharts::clear() {
  showSamples({});
  for (ChartPanel* panel : all()) panel->setAnnotation({});
}

QString byteSize(double bytes) {
  // Three significant digits without an exponent.
  const auto digits = [](double value) { return fixed(value, value >= 100 ? 0 : value >= 10 ? 1 : 2); };
  const double magnitude = std::abs(bytes);
  if (magnitude < 1e3) return QObject::tr("%1 B").arg(fixed(bytes, 0));
  if (magnitude < 1e6) return QObject::tr("%1 kB").arg(digits(bytes / 1e3));
  if (magnitude < 1e9) return QObject::tr("%1 MB").arg(digits(bytes / 1e6));
  return QObject::tr("%1 GB").arg(digits(bytes / 1e9));
}

}  // namespace aaren::ui
