#pragma once
// The run catalog (core/runs/run_catalog.hpp) as the pages use it: Qt paths, names and times, a
// listing that travels from the worker thread to the pages that show it, and the name of a new
// run's folder. Where the runs folder is, is remembered between sessions (Settings).
#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <memory>
#include <vector>

#include "core/runs/run_catalog.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

// Every run of one runs folder, newest first, as list_runs read it.
struct RunListing {
  QString folder;
  std::vector<RunEntry> runs;
};
using SharedRunListing = std::shared_ptr<const RunListing>;

// Lists the runs folder, for BackgroundJob::start: the listing reads config.json and metrics.json
// of every run, so it runs off the GUI thread. The result holds a SharedRunListing.
JobWork listRunsWork(const QString& folder);

// One run folder (config.json and metrics.json only). Throws std::runtime_error naming the file
// and what is wrong with it.
RunEntry readRunEntry(const QString& dir);

QString runPath(const std::string& path);        // a path of the catalog, for Qt
QString modelName(const ModelRunEntry& model);  // "Aaren", "Transformer"

// A new, not yet existing folder inside runsFolder, e.g. "20240521-140307-airpassengers-both".
QString newRunFolder(const QString& runsFolder, const QString& datasetName, const QString& modelsLabel,
                     const QDateTime& when = QDateTime::currentDateTime());

}  // namespace aaren::ui

Q_DECLARE_METATYPE(aaren::ui::SharedRunListing)
