#pragma once
#include <QColor>
#include <QChart>
// Charts out of the application: PNG (at a chosen pixel size and DPI), SVG and PDF (vector), and
// the data behind a chart as CSV. Every file is written to a temporary file and renamed into
// place, so a failed export never leaves a half-written file. Failures throw std::runtime_error
// with the path and the reason.
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

namespace aaren::ui {

class ChartPanel;

enum class ExportFormat { png, svg, pdf, csv };
inline constexpr ExportFormat kExportFormats[] = {ExportFormat::png, ExportFormat::svg, ExportFormat::pdf,
                                                  ExportFormat::csv};

QString suffixOf(ExportFormat format);  // "png", ...
std::optional<ExportFormat> exportFormatFromSuffix(const QString& suffix);
QString describe(ExportFormat format);  // "PNG image", ... for dialogs

// The DPI sets the size of text and lines relative to the image: at 192 DPI a 1600 x 1000 image
// shows the chart as it would look in a 800 x 500 window, twice as sharp. SVG and PDF take their
// physical size from the same pair (pixels / DPI inches).
struct ImageOptions {
  QSize pixelSize{1600, 1000};
  int dpi = 144;
};

inline constexpr int kMinExportDpi = 36;
inline constexpr int kMaxExportDpi = 1200;
inline constexpr int kMaxExportSide = 20000;  // pixels

// The chart as exportPng draws it, in memory (the requested DPI recorded in the image).
QImage renderChartImage(ChartPanel& chart, const ImageOptions& options = {});
void exportPng(ChartPanel& chart, const QString& path, const ImageOptions& options = {});
void exportSvg(ChartPanel& chart, const QString& path, const ImageOptions& options = {});
void exportPdf(ChartPanel& chart, const QString& path, const ImageOptions& options = {});
// One column pair (x, y) per series, headed by the series' names; dates as ISO 8601 text.
void exportCsv(const ChartPanel& chart, const QString& path);
void exportChart(ChartPanel& chart, const QString& path, ExportFormat format, const ImageOptions& options = {});

QString chartCsv(const ChartPanel& chart);  // what exportCsv writes
QString csvField(const QString& text);      // quoted when it holds a comma, quote or line break

// "Loss vs. step (Aaren)" -> "loss-vs-step-aaren"; accents are dropped, empty text gives "chart".
QString slugify(const QString& text);

// Throws std::invalid_argument when the size or DPI is out of range; `what` names the output.
void checkImageOptions(const ImageOptions& options, const QString& what);

// The colour behind a chart, for filling the margins of an exported image.
QColor backgroundColorOf(const QChart* chart);

}  // namespace aaren::ui
