#pragma once
// A run's charts without a window (aaren-studio --export-charts): the Train page's loss chart and
// the Forecast page's chart of the last test window, built offscreen exactly as the pages show
// them and written as PNG, SVG, PDF and CSV like a lecture pack.
#include <QString>
#include <QStringList>

#include "ui/chart_export.hpp"

namespace aaren::ui {

// Throws std::runtime_error naming the problem: a folder that is not a run, data that cannot be
// found or read, a file that cannot be written. Returns the files written.
QStringList exportRunCharts(const QString& runDir, const QString& folder, const ImageOptions& options = {});

}  // namespace aaren::ui
