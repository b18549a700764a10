#include "ui/chart_export.hpp"

#include <QChart>
#include <QDateTime>
#include <QDir>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QXYSeries>
#include <algorithm>
#include <stdexcept>

#include "core/io/matrix_csv.hpp"
#include "ui/atomic_write.hpp"
#include "ui/chart_panel.hpp"
#include "ui/chart_view.hpp"

namespace aaren::ui {

namespace {

constexpr qreal kMetersPerInch = 0.0254;
constexpr int kMaxSlugLength = 80;

[[noreturn]] void fail(const QString& message) { throw std::runtime_error(message.toStdString()); }

// The chart is laid out in the view's logical pixels, with fonts measured at the screen's DPI.
qreal layoutDpi(const ChartPanel& chart) { return chart.view()->logicalDpiX(); }

QSizeF logicalSize(const ChartPanel& chart, const ImageOptions& options) {
  return QSizeF(options.pixelSize) * (layoutDpi(chart) / options.dpi);
}

// Lays the chart out at size, paints it at the painter's origin, and gives it back its own size.
void renderChart(ChartPanel& panel, QPainter& painter, const QSizeF& size) {
  QChart* chart = panel.chart();
  const QSizeF original = chart->size();
  chart->resize(size);
  if (chart->layout()) chart->layout()->activate();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  chart->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(chart->pos(), size));
  // A chart that was never shown has no size of its own yet; its view sets one when shown.
  if (!original.isEmpty()) {
    chart->resize(original);
    if (chart->layout()) chart->layout()->activate();
  }
}

QString axisTitleOr(const QAbstractAxis* axis, const QString& fallback) {
  return axis->titleText().isEmpty() ? fallback : axis->titleText();
}

}  // namespace

void checkImageOptions(const ImageOptions& options, const QString& what) {
  const QSize size = options.pixelSize;
  if (size.width() < 1 || size.height() < 1 || size.width() > kMaxExportSide || size.height() > kMaxExportSide)
    throw std::invalid_argument(QObject::tr("The %4 size %1 x %2 pixels is outside 1 to %3 pixels per side.")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(kMaxExportSide)
                                    .arg(what)
                                    .toStdString());
  if (options.dpi < kMinExportDpi || options.dpi > kMaxExportDpi)
    throw std::invalid_argument(QObject::tr("%1 DPI is outside %2 to %3 DPI.")
                                    .arg(options.dpi)
                                    .arg(kMinExportDpi)
                                    .arg(kMaxExportDpi)
                                    .toStdString());
}

// Themes paint the background with a gradient; its first colour is close enough for the edges.
QColor backgroundColorOf(const QChart* chart) {
  const QBrush brush = chart->backgroundBrush();
  if (const QGradient* gradient = brush.gradient(); gradient && !gradient->stops().isEmpty())
    return gradient->stops().first().second;
  return brush.color();
}

QString suffixOf(ExportFormat format) {
  switch (format) {
    case ExportFormat::png: return QStringLiteral("png");
    case ExportFormat::svg: return QStringLiteral("svg");
    case ExportFormat::pdf: return QStringLiteral("pdf");
    case ExportFormat::csv: return QStringLiteral("csv");
  }
  return {};
}

std::optional<ExportFormat> exportFormatFromSuffix(const QString& suffix) {
  for (ExportFormat format : kExportFormats)
    if (suffix.compare(suffixOf(format), Qt::CaseInsensitive) == 0) return format;
  return std::nullopt;
}

QString describe(ExportFormat format) {
  switch (format) {
    case ExportFormat::png: return QObject::tr("PNG image");
    case ExportFormat::svg: return QObject::tr("SVG vector drawing");
    case ExportFormat::pdf: return QObject::tr("PDF document");
    case ExportFormat::csv: return QObject::tr("CSV data");
  }
  return {};
}

QImage renderChartImage(ChartPanel& chart, const ImageOptions& options) {
  checkImageOptions(options, QObject::tr("image"));
  QImage image(options.pixelSize, QImage::Format_ARGB32_Premultiplied);
  // Paint at the layout's DPI so text keeps its size relative to the chart, then record the
  // requested DPI for whoever places the image.
  const int layoutDotsPerMeter = qRound(layoutDpi(chart) / kMetersPerInch);
  image.setDotsPerMeterX(layoutDotsPerMeter);
  image.setDotsPerMeterY(layoutDotsPerMeter);
  image.fill(backgroundColorOf(chart.chart()));
  {
    QPainter painter(&image);
    painter.scale(options.dpi / layoutDpi(chart), options.dpi / layoutDpi(chart));
    renderChart(chart, painter, logicalSize(chart, options));
  }
  const int dotsPerMeter = qRound(options.dpi / kMetersPerInch);
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  return image;
}

void exportPng(ChartPanel& chart, const QString& path, const ImageOptions& options) {
  const QImage image = renderChartImage(chart, options);
  writeFileAtomically(path, [&](QIODevice& file) {
    if (!image.save(&file, "PNG")) fail(QObject::tr("Cannot encode the PNG image '%1'.").arg(path));
  });
}

void exportSvg(ChartPanel& chart, const QString& path, const ImageOptions& options) {
  checkImageOptions(options, QObject::tr("image"));
  const QSizeF size = logicalSize(chart, options);
  writeFileAtomically(path, [&](QIODevice& file) {
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size.toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), size));
    generator.setResolution(qRound(layoutDpi(chart)));
    generator.setTitle(chart.title());
    generator.setDescription(QObject::tr("Chart exported from Aaren Studio"));
    QPainter painter(&generator);
    renderChart(chart, painter, size);
  });
}

void exportPdf(ChartPanel& chart, const QString& path, const ImageOptions& options) {
  checkImageOptions(options, QObject::tr("image"));
  const QSizeF size = logicalSize(chart, options);
  writeFileAtomically(path, [&](QIODevice& file) {
    QPdfWriter writer(&file);
    writer.setResolution(qRound(layoutDpi(chart)));
    const QSizeF inches = QSizeF(options.pixelSize) / options.dpi;
    writer.setPageSize(QPageSize(inches, QPageSize::Inch, chart.title(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(chart.title());
    writer.setCreator(QStringLiteral("Aaren Studio"));
    QPainter painter(&writer);
    painter.scale(writer.width() / size.width(), writer.height() / size.height());
    renderChart(chart, painter, size);
  });
}

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
      !text.contains(QLatin1Char('\r')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString chartCsv(const ChartPanel& chart) {
  if (QString table = chart.tableCsv(); !table.isEmpty()) return table;
  const QList<QXYSeries*> series = chart.dataSeries();
  const QString xName = axisTitleOr(chart.xAxis(), QStringLiteral("x"));
  const QString yName = axisTitleOr(chart.yAxis(), QStringLiteral("y"));
  QStringList header;
  qsizetype rows = 0;
  for (qsizetype i = 0; i < series.size(); ++i) {
    const QString name = series[i]->name().isEmpty() ? QObject::tr("series %1").arg(i + 1) : series[i]->name();
    header << csvField(name + QLatin1Char(' ') + xName) << csvField(name + QLatin1Char(' ') + yName);
    rows = std::max(rows, qsizetype(series[i]->count()));
  }
  const bool dates = chart.xAxisKind() == XAxisKind::dateTime;
  QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (qsizetype row = 0; row < rows; ++row) {
    QStringList cells;
    for (const QXYSeries* s : series) {
      if (row >= s->count()) {
        cells << QString() << QString();
        continue;
      }
      const QPointF point = s->at(int(row));
      cells << (dates ? QDateTime::fromMSecsSinceEpoch(qint64(point.x())).toString(Qt::ISODate)
                      : QString::fromStdString(format_number(double(point.x()))))
            << QString::fromStdString(format_number(double(point.y())));
    }
    text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return text;
}

void exportCsv(const ChartPanel& chart, const QString& path) {
  const QByteArray bytes = chartCsv(chart).toUtf8();
  writeFileAtomically(path, [&](QIODevice& file) { file.write(bytes); });
}

void exportChart(ChartPanel& chart, const QString& path, ExportFormat format, const ImageOptions& options) {
  switch (format) {
    case ExportFormat::png: return exportPng(chart, path, options);
    case ExportFormat::svg: return exportSvg(chart, path, options);
    case ExportFormat::pdf: return exportPdf(chart, path, options);
    case ExportFormat::csv: return exportCsv(chart, path);
  }
}

QString slugify(const QString& text) {
  QString slug;
  for (const QChar c : text.normalized(QString::NormalizationForm_KD)) {
    if (c.isMark()) continue;
    if (c.unicode() < 128 && c.isLetterOrNumber()) slug += c.toLower();
    else if (!slug.isEmpty() && !slug.endsWith(QLatin1Char('-'))) slug += QLatin1Char('-');
  }
  slug.truncate(kMaxSlugLength);
  while (slug.endsWith(QLatin1Char('-'))) slug.chop(1);
  return slug.isEmpty() ? QStringLiteral("chart") : slug;
}

}  // namespace aaren::ui
