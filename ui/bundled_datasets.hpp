#pragma once
// The sample data that ships with the application (the datasets/ folder and its README crediting
// each source). Found beside the executable, in an installed share/aaren-studio/datasets, or in a
// source tree above a build folder; AAREN_DATASETS_DIR overrides the search.
#include <QList>
#include <QString>

namespace aaren::ui {

struct BundledDataset {
  QString group;  // the subfolder, e.g. "r-datasets"; empty for files at the top
  QString name;   // the file name without ".csv"
  QString path;   // absolute
  bool eventLog = false;  // read as an event log rather than a time series (ui/events/event_import.hpp)
};

QString bundledDatasetsDir();  // empty when none is found

// Every .csv below dir, sorted by group, then name; event logs recognised from their columns.
QList<BundledDataset> bundledDatasets(const QString& dir);

// The credits (datasets/README.md) as Markdown, or a sentence saying where they were looked for.
QString datasetCredits(const QString& dir);

}  // namespace aaren::ui
