#include "ui/stream_charts.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLocale>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/wording/growth_wording.hpp"

namespace aaren::ui {

namespace {

// Fixed per model, so each model has one colour on every chart and in every export.
const QColor kAarenColor(0x25, 0x63, 0xd9);
const QColor kTransformerColor(0xe0, 0x6c, 0x1f);
const QColor kRatioColor(0x7b, 0x4f, 0xc9);
constexpr double kBytesPerMegabyte = 1e6;
constexpr double kMicrosecondsPerSecond = 1e6;

QString aarenName() { return QObject::tr("Aaren"); }
QString transformerName() { return QObject::tr("Transformer (KV cache)"); }

ChartPanel* makeChart(QWidget* parent, const QString& title, const QString& yTitle) {
  auto* panel = new ChartPanel(title, parent);
  // Short axis titles: the chart title says what is measured, and a projector's 4-chart page leaves
  // the vertical titles little room.
  panel->setAxisTitles(QObject::tr("tokens N"), yTitle);
  panel->setYAxisOrigin(AxisOrigin::zero);
  panel->setPlaceholderText(QObject::tr("Press Start to measure both models"));
  return panel;
}

void addModelSeries(ChartPanel* panel) {
  panel->addLineSeries(aarenName(), kAarenColor);
  panel->addLineSeries(transformerName(), kTransformerColor);
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
      ratio_(makeChart(parent, QObject::tr("Cumulative time, Transformer / Aaren"), QObject::tr("ratio"))) {
  addModelSeries(memory_);
  addModelSeries(cumulativeTime_);
  addModelSeries(latency_);
  // The Transformer's latency grows to many times Aaren's: on a log axis both stay readable.
  latency_->setLogScaleAvailable(true);
  latency_->setLogScaleY(true);
  ratio_->addLineSeries(QObject::tr("Transformer / Aaren"), kRatioColor);
  for (const QColor& color : {kAarenColor, kTransformerColor}) {
    cumulativeBands_ << addSpreadBand(cumulativeTime_, color);
    latencyBands_ << addSpreadBand(latency_, color);
  }
  // Aaren's state is a few kilobytes beside megabytes of KV cache: its note names the size.
  memory_->setValueText([](qreal megabytes) { return byteSize(megabytes * kBytesPerMegabyte); });
}

QList<QAreaSeries*> StreamCharts::spreadBands(const ChartPanel* panel) const {
  if (panel == cumulativeTime_) return cumulativeBands_;
  if (panel == latency_) return latencyBands_;
  return {};
}

void StreamCharts::showSamples(const std::vector<bench::StreamSample>& samples) {
  QList<QPointF> memory[2], cumulative[2], latency[2], ratio;
  QList<QPointF> cumulativeLow[2], cumulativeHigh[2], latencyLow[2], latencyHigh[2];
  for (const bench::StreamSample& s : samples) {
    const qreal n = qreal(s.tokens);
    for (int k = 0; k < 2; ++k) {
      memory[k].append({n, s.state_bytes[k] / kBytesPerMegabyte});
      cumulative[k].append({n, s.cumulative_seconds[k]});
      latency[k].append({n, s.latency_seconds[k] * kMicrosecondsPerSecond});
      cumulativeLow[k].append({n, s.cumulative_low_seconds[k]});
      cumulativeHigh[k].append({n, s.cumulative_high_seconds[k]});
      latencyLow[k].append({n, s.latency_low_seconds[k] * kMicrosecondsPerSecond});
      latencyHigh[k].append({n, s.latency_high_seconds[k] * kMicrosecondsPerSecond});
    }
    if (s.cumulative_seconds[0] > 0) ratio.append({n, s.cumulative_seconds[1] / s.cumulative_seconds[0]});
  }
  for (int k = 0; k < 2; ++k) {
    setSeriesData(memory_->dataSeries().at(k), memory[k]);
    setSeriesData(cumulativeTime_->dataSeries().at(k), cumulative[k]);
    setSeriesData(latency_->dataSeries().at(k), latency[k]);
    setSeriesData(cumulativeBands_.at(k)->lowerSeries(), cumulativeLow[k]);
    setSeriesData(cumulativeBands_.at(k)->upperSeries(), cumulativeHigh[k]);
    setSeriesData(latencyBands_.at(k)->lowerSeries(), latencyLow[k]);
    setSeriesData(latencyBands_.at(k)->upperSeries(), latencyHigh[k]);
  }
  setSeriesData(ratio_->dataSeries().at(0), ratio);
}

void StreamCharts::showFit(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result) {
  if (result.samples.empty()) {
    for (ChartPanel* panel : all()) panel->setAnnotation({});
    return;
  }
  const bench::StreamSample& last = result.samples.back();
  const int predictedSlope = 2 * options.model.layers * options.model.d_model * int(sizeof(float));
  // Short lines: the note must leave the plot to the data, in presenter mode too.
  memory_->setAnnotation(QObject::tr("bytes per token (fitted): %1 %2, %3 %4\npredicted 2 × layers × d_model × 4 = %5")
                             .arg(aarenName(), fixed(result.fit[0].memory_bytes_per_token, 0), QObject::tr("Transformer"),
                                  fixed(result.fit[1].memory_bytes_per_token, 0), tokens(predictedSlope)));
  // The exponent with its range over the runs, and where it was fitted (core/bench/stream_summary.hpp).
  const bench::GrowthFit& reference = result.fit[0].fit_points > 0 ? result.fit[0] : result.fit[1];
  cumulativeTime_->setAnnotation(
      QObject::tr("time ∝ N^k, N = %1–%2\n%3: k = %4\n%5: k = %6")
          .arg(tokens(reference.fit_from_tokens), tokens(reference.fit_to_tokens), aarenName(),
               exponentWithRange(result.fit[0]), QObject::tr("Transformer"), exponentWithRange(result.fit[1])));
  // The median step and the quartiles of the raw steps around it.
  const auto spread = [&last](int k) {
    return QObject::tr("%1 µs (%2–%3)")
        .arg(microseconds(last.latency_seconds[k]), microseconds(last.latency_low_seconds[k]),
             microseconds(last.latency_high_seconds[k]));
  };
  latency_->setAnnotation(QObject::tr("at N = %1, median (quartiles)\n%2: %3\n%4: %5")
                              .arg(tokens(last.tokens), aarenName(), spread(0), QObject::tr("Transformer"), spread(1)));
  ratio_->setAnnotation(last.cumulative_seconds[0] > 0
                            ? QObject::tr("at N = %1: %2×")
                                  .arg(tokens(last.tokens),
                                       fixed(last.cumulative_seconds[1] / last.cumulative_seconds[0], 1))
                            : QString());
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
