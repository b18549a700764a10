#pragma once
// A lecture pack without a window (aaren-studio --export-charts): the run's charts read from its
// folder (train/ and forecast/) and every view of the Explore page (explore/), with index.html,
// as ui/lecture_pack/lecture_pack.hpp writes them.
#include <QString>

#include "ui/chart_export.hpp"
#include "ui/lecture_pack/lecture_pack.hpp"

namespace aaren::ui {

// Throws std::runtime_error naming the problem: a folder that is not a run, data that cannot be
// found or read, a file that cannot be written.
LecturePack exportRunCharts(const QString& runDir, const QString& folder, const ImageOptions& options = {},
                            const QString& preferredData = {});

}  // namespace aaren::ui
