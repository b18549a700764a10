#include "ui/figure5_export.hpp"

#include <QApplication>
#include <QChart>
#include <QFileInfo>
#include <QGradient>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QLocale>
#include <QStringList>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>
#include <stdexcept>

#include "ui/atomic_write.hpp"
#include "ui/chart_panel.hpp"
#include "ui/chart_view.hpp"
#include "ui/stream_charts.hpp"
#include "ui/wording/growth_wording.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kMetersPerInch = 0.0254;
constexpr qreal kCaptionMargin = 24;   // logical pixels left and right of the caption
constexpr qreal kCaptionPadding = 10;  // above and below it
constexpr qreal kMinChartHeight = 120;

[[noreturn]] void fail(const QString& message) { throw std::runtime_error(message.toStdString()); }

// Lays the chart out at the target's size, paints it there, and gives it back its own size.
void renderChartAt(ChartPanel& panel, QPainter& painter, const QRectF& target) {
  QChart* chart = panel.chart();
  const QSizeF original = chart->size();
  chart->resize(target.size());
  if (chart->layout()) chart->layout()->activate();
  chart->scene()->render(&painter, target, QRectF(chart->pos(), target.size()));
  chart->resize(original);
  if (chart->layout()) chart->layout()->activate();
}

// Everything in logical pixels: the two charts share the width, the caption takes the height its
// wrapped text needs, the charts the rest.
void paintFigure(QPainter& painter, ChartPanel& memory, ChartPanel& cumulativeTime, const QString& caption,
                 const QSizeF& size) {
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  painter.fillRect(QRectF(QPointF(0, 0), size), backgroundColorOf(memory.chart()));
  painter.setFont(QApplication::font());
  const int flags = Qt::TextWordWrap | Qt::AlignHCenter | Qt::AlignTop;
  const qreal textWidth = size.width() - 2 * kCaptionMargin;
  const QRectF needed = painter.boundingRect(QRectF(kCaptionMargin, 0, textWidth, size.height()), flags, caption);
  const qreal captionHeight = caption.isEmpty() ? 0 : needed.height() + 2 * kCaptionPadding;
  const qreal chartHeight = size.height() - captionHeight;
  if (chartHeight < kMinChartHeight)
    throw std::invalid_argument(
        QObject::tr("The figure is too small for its caption: make it larger or its DPI lower.").toStdString());
  const qreal half = size.width() / 2;
  renderChartAt(memory, painter, QRectF(0, 0, half, chartHeight));
  renderChartAt(cumulativeTime, painter, QRectF(half, 0, half, chartHeight));
  painter.setPen(memory.chart()->titleBrush().color());
  painter.drawText(QRectF(kCaptionMargin, chartHeight + kCaptionPadding, textWidth, needed.height()), flags, caption);
}

QString tokens(long n) { return QLocale().toString(qlonglong(n)); }
QString fixed(double value, int decimals) { return QLocale().toString(value, 'f', decimals); }

}  // namespace

std::optional<ExportFormat> figure5FormatOf(const QString& path) {
  const std::optional<ExportFormat> format = exportFormatFromSuffix(QFileInfo(path).suffix());
  if (format == ExportFormat::csv) return std::nullopt;
  return format;
}

QString figure5Caption(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result) {
  const ModelConfig& m = options.model;
  const int repeats = std::max(1, options.repeats);
  const bool linear = bench::streamed(result, ModelKind::linear);
  QString caption = (linear ? QObject::tr("Tokens streamed one at a time through Aaren, a KV-cached Transformer and a "
                                          "linear Transformer of the same size")
                            : QObject::tr("Tokens streamed one at a time through Aaren and a KV-cached Transformer of "
                                          "the same size")) +
                    QObject::tr(" (d_model %1, heads %2, layers %3, d_ff %4, float32, CPU; %5).")
                        .arg(m.d_model)
                        .arg(m.heads)
                        .arg(m.layers)
                        .arg(m.d_ff)
                        .arg(repeats == 1 ? QObject::tr("one run") : QObject::tr("median of %1 runs").arg(repeats));
  if (result.samples.empty()) return caption;
  const bench::StreamSample& last = result.samples.back();
  const int aaren = bench::stream_model_index(ModelKind::aaren);
  QStringList fits, ratios;
  for (const ModelKind kind : result.kinds) {
    const int k = bench::stream_model_index(kind);
    const QString name = inSentence(kind);
    fits << QObject::tr("%1 time ∝ N^%2 and %3 bytes per token")
                .arg(name, exponentWithRange(result.fit[k]), fixed(result.fit[k].memory_bytes_per_token, 0));
    if (kind != ModelKind::aaren)
      ratios << QObject::tr("the %1 took %2× as long as Aaren")
                    .arg(name, last.cumulative_seconds[aaren] > 0
                                   ? fixed(last.cumulative_seconds[k] / last.cumulative_seconds[aaren], 1)
                                   : QStringLiteral("?"));
  }
  caption += QLatin1Char(' ') +
             QObject::tr("Left: the state each keeps; right: cumulative time, shaded from the fastest to the slowest "
                         "run. Fitted over the upper half of N: %1.")
                 .arg(fits.join(QStringLiteral("; ")));
  if (!ratios.isEmpty())
    caption += QLatin1Char(' ') + QObject::tr("At N = %1 %2.").arg(tokens(last.tokens), ratios.join(QStringLiteral(", ")));
  if (linear)
    caption += QLatin1Char(' ') + QObject::tr("Aaren and the Transformer are exact softmax attention; the linear "
                                              "Transformer approximates it.");
  caption += QLatin1Char(' ') + QObject::tr("Compare Feng et al. (2024), Figure 5.");
  if (result.stopped_early) caption += QLatin1Char(' ') + QObject::tr("The run was stopped early.");
  return caption;
}

void exportFigure5(ChartPanel& memory, ChartPanel& cumulativeTime, const QString& caption, const QString& path,
                   const ImageOptions& options) {
  const std::optional<ExportFormat> format = figure5FormatOf(path);
  if (!format)
    throw std::invalid_argument(
        QObject::tr("'%1': the Figure 5 export writes .png, .svg or .pdf files.").arg(path).toStdString());
  checkImageOptions(options, QObject::tr("figure"));
  // Laid out in the chart's logical pixels, with fonts measured at the screen's DPI, as every
  // chart export is (ui/chart_export.cpp).
  const qreal layoutDpi = memory.view()->logicalDpiX();
  const QSizeF size = QSizeF(options.pixelSize) * (layoutDpi / options.dpi);
  const QString title = QObject::tr("Figure 5, measured");

  if (*format == ExportFormat::png) {
    QImage image(options.pixelSize, QImage::Format_ARGB32_Premultiplied);
    const int layoutDotsPerMeter = qRound(layoutDpi / kMetersPerInch);
    image.setDotsPerMeterX(layoutDotsPerMeter);
    image.setDotsPerMeterY(layoutDotsPerMeter);
    image.fill(backgroundColorOf(memory.chart()));
    {
      QPainter painter(&image);
      painter.scale(options.dpi / layoutDpi, options.dpi / layoutDpi);
      paintFigure(painter, memory, cumulativeTime, caption, size);
    }
    const int dotsPerMeter = qRound(options.dpi / kMetersPerInch);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    writeFileAtomically(path, [&](QIODevice& file) {
      if (!image.save(&file, "PNG")) fail(QObject::tr("Cannot encode the PNG image '%1'.").arg(path));
    });
    return;
  }
  if (*format == ExportFormat::svg) {
    writeFileAtomically(path, [&](QIODevice& file) {
      QSvgGenerator generator;
      generator.setOutputDevice(&file);
      generator.setSize(size.toSize());
      generator.setViewBox(QRectF(QPointF(0, 0), size));
      generator.setResolution(qRound(layoutDpi));
      generator.setTitle(title);
      generator.setDescription(caption);
      QPainter painter(&generator);
      paintFigure(painter, memory, cumulativeTime, caption, size);
    });
    return;
  }
  writeFileAtomically(path, [&](QIODevice& file) {
    QPdfWriter writer(&file);
    writer.setResolution(qRound(layoutDpi));
    const QSizeF inches = QSizeF(options.pixelSize) / options.dpi;
    writer.setPageSize(QPageSize(inches, QPageSize::Inch, title, QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Aaren Studio"));
    QPainter painter(&writer);
    painter.scale(writer.width() / size.width(), writer.height() / size.height());
    paintFigure(painter, memory, cumulativeTime, caption, size);
  });
}

void exportFigure5(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result,
                   const QString& path, const ImageOptions& imageOptions) {
  QWidget host;
  StreamCharts charts(&host);
  charts.setModels(result.kinds);
  charts.showSamples(result.samples);
  charts.showFit(options, result);
  exportFigure5(*charts.memory(), *charts.cumulativeTime(), figure5Caption(options, result), path, imageOptions);
}

}  // namespace aaren::ui
