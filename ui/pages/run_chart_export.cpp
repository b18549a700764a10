#include "ui/pages/run_chart_export.hpp"


#include "ui/explore/explore_page.hpp"
#include "ui/report/run_figures.hpp"

namespace aaren::ui {

namespace {

// The Explore page's size in the window of a 1400 x 900 screenshot.
const QSize kExploreSize(1200, 800);

}  // namespace

LecturePack exportRunCharts(const QString& runDir, const QString& folder, const ImageOptions& options,
                            const QString& preferredData) {
  // A run that cannot be read stops the export before anything is written.
  const RunOnDisk run = readRunOnDisk(runDir, preferredData);
  ExplorePage explore;
  explore.setAttribute(Qt::WA_DontShowOnScreen);
  explore.resize(kExploreSize);
  explore.show();
  LecturePackSources sources;
  sources.runDir = runDir;
  sources.run = &run;
  sources.preferredData = preferredData;
  sources.explore = &explore;
  return writeLecturePack(sources, folder, options);
}

}  // namespace aaren::ui
