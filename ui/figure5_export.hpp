#pragma once
// The paper's Figure 5 as measured on this machine: state memory and cumulative time of Aaren and
// a KV-cached Transformer side by side, one caption under both, in one image or one PDF page.
// Used by the Efficiency page and by `aaren bench stream --chart`. Files are written whole or not
// at all; failures throw std::runtime_error (std::invalid_argument for a wrong suffix or size).
#include <QString>
#include <optional>

#include "core/bench/stream_bench.hpp"
#include "ui/chart_export.hpp"

namespace aaren::ui {

class ChartPanel;

// Twice as wide as high: two roughly square panels and the caption band.
inline const ImageOptions kFigure5ImageOptions{QSize(2400, 1200), 192};

// PNG, SVG or PDF from the path's suffix; nullopt for anything else.
std::optional<ExportFormat> figure5FormatOf(const QString& path);

// What the figure shows, the model's size and the fitted growth, in one or two sentences.
QString figure5Caption(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result);

// Composes the two charts as they are (series, fitted text, theme).
void exportFigure5(ChartPanel& memory, ChartPanel& cumulativeTime, const QString& caption, const QString& path,
                   const ImageOptions& options = kFigure5ImageOptions);

// Builds the charts from a finished measurement first. Needs a QApplication.
void exportFigure5(const bench::StreamBenchOptions& options, const bench::StreamBenchResult& result,
                   const QString& path, const ImageOptions& imageOptions = kFigure5ImageOptions);

}  // namespace aaren::ui
