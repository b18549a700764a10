#include "ui/stream_charts.hpp"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>
#include <utility>

#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"

namespace aaren::ui {

namespace {

// Fixed per model, so each model has one colour on every chart and in every export.
const QColor kAarenColor(0x25, 0x63, 0xd9);
const QColor kTransformerColor(0xe0, 0x6c, 0x1f);
const QColor kRatioColor(0x7b, 0x4f, 0xc9);
const QPointF kNoteOffset(12, 8);  // from the plot area's top left corner, where the curves are low
constexpr qreal kNoteZ = 1000;     // above the series
constexpr double kBytesPerMegabyte = 1e6;
constexpr double kMicrosecondsPerSecond = 1e6;

QString aarenName() { return QObject::tr("Aaren"); }
QString transformerName() { return QObject::tr("Transformer (KV cache)"); }

ChartPanel* makeChart(QWidget* parent, const QString& title, const QString& yTitle) {
  auto* panel = new ChartPanel(title, parent);
  panel->setAxisTitles(QObject::tr("tokens streamed N"), yTitle);
  // Token counts are whole numbers; %g also keeps the empty chart's 0 to 1 axis readable.
  if (auto* x = qobject_cast<QValueAxis*>(panel->xAxis())) x->setLabelFormat(QStringLiteral("%g"));
  return panel;
}

void addModelSeries(ChartPanel* panel) {
  panel->addLineSeries(aarenName(), kAarenColor);
  panel->addLineSeries(transformerName(), kTransformerColor);
}

// Text drawn inside the chart itself, so it is part of every export; it follows the plot area
// when the chart is resized and the theme's text colour when the theme changes.
QGraphicsSimpleTextItem* addNote(ChartPanel* panel) {
  QChart* chart = panel->chart();
  auto* note = new QGraphicsSimpleTextItem(chart);
  note->setZValue(kNoteZ);
  const auto place = [chart, note] { note->setPos(chart->plotArea().topLeft() + kNoteOffset); };
  const auto style = [chart, note] {
    note->setBrush(chart->titleBrush());
    note->setFont(chart->legend()->font());
  };
  QObject::connect(chart, &QChart::plotAreaChanged, panel, place);
  QObject::connect(&Appearance::instance(), &Appearance::changed, panel, style);
  place();
  style();
  return note;
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
      cumulativeTime_(makeChart(parent, QObject::tr("Cumulative time vs. tokens"), QObject::tr("cumulative time (s)"))),
      latency_(makeChart(parent, QObject::tr("Per-token latency vs. tokens"), QObject::tr("latency (µs per token)"))),
      ratio_(makeChart(parent, QObject::tr("Cumulative time, Transformer / Aaren"), QObject::tr("ratio"))) {
  addModelSeries(memory_);
  addModelSeries(cumulativeTime_);
  addModelSeries(latency_);
  // The Transformer's latency grows to many times Aaren's: on a log axis both stay readable.
  latency_->setLogScaleAvailable(true);
  latency_->setLogScaleY(true);
  ratio_->addLineSeries(QObject::tr("Transformer / Aaren"), kRatioColor);
  for (ChartPanel* panel : all()) notes_ << addNote(panel);
}

void StreamCharts::showSamples(const std::vector<bench::StreamSample>& samples) {
  QList<QPointF> memory[2], cumulative[2], latency[2], ratio;
  for (const bench::StreamSample& s : samples) {
    const qreal n = qreal(s.tokens);
    for (int k = 0; k < 2; ++k) {
      memory[k].append({n, s.state_bytes[k] / kBytesPerMegabyte});
      cumulative[k].append({n, s.cumulative_seconds[k]});
      latency[k].append({n, s.latency_seconds[k] * kMicrosecondsPerSecond});
    }
    if (s.cumulative_seconds[0] > 0) ratio.append({n, s.cumulative_seconds[1] / s.cumulative_seconds[0]});
  }
  for (int k = 0; k < 2; ++k) {
    setSeriesData(memory_->dataSeries().at(k), memory[k]);
    setSeriesData(cumulativeTime_->dataSeries().at(k), cumulative[k]);
    setSeriesData(latency_->dataSeries().at(k), latency[k]);
  }
  setSeriesData(ratio_->dataSeries().at(0), ratio);
}

void StreamCharts::showFit(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result) {
  if (result.samples.empty()) {
    for (QGraphicsSimpleTextItem* note : std::as_const(notes_)) note->setText({});
    return;
  }
  const bench::StreamSample& last = result.samples.back();
  const int predictedSlope = 2 * options.model.layers * options.model.d_model * int(sizeof(float));
  notes_[0]->setText(QObject::tr("state bytes per token (fitted slope)\n%1: %2\n%3: %4\n(predicted: 2 × layers × "
                                 "d_model × 4 = %5)")
                         .arg(aarenName(), fixed(result.fit[0].memory_bytes_per_token, 0), transformerName(),
                              fixed(result.fit[1].memory_bytes_per_token, 0), tokens(predictedSlope)));
  notes_[1]->setText(QObject::tr("time ∝ N^k, k fitted over the upper half of N\n%1: k = %2\n%3: k = %4")
                         .arg(aarenName(), fixed(result.fit[0].time_exponent, 2), transformerName(),
                              fixed(result.fit[1].time_exponent, 2)));
  notes_[2]->setText(QObject::tr("per-token latency at N = %1\n%2: %3 µs\n%4: %5 µs")
                         .arg(tokens(last.tokens), aarenName(), microseconds(last.latency_seconds[0]),
                              transformerName(), microseconds(last.latency_seconds[1])));
  notes_[3]->setText(last.cumulative_seconds[0] > 0
                         ? QObject::tr("at N = %1: %2×")
                               .arg(tokens(last.tokens),
                                    fixed(last.cumulative_seconds[1] / last.cumulative_seconds[0], 1))
                         : QString());
}

void StreamCharts::clear() {
  showSamples({});
  for (QGraphicsSimpleTextItem* note : std::as_const(notes_)) note->setText({});
}

}  // namespace aaren::ui
