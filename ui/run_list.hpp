#pragma once
// Training runs on disk. A runs folder holds run folders as the Train page and `aaren train` write
// them: a single model's run (config.json, model.safetensors, metrics.json, loss.csv), or a
// side-by-side run, a folder with an aaren/ and a transformer/ run inside, trained on the same data
// with the same seed. Where the runs folder is, is remembered between sessions.
#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

#include "core/events/event_run_folder.hpp"
#include "core/train/run_folder.hpp"

namespace aaren::ui {

struct ModelRunInfo {
  QString dir;
  QString modelName;  // "Aaren", "Transformer"
  LoadedRun run;      // a forecasting model: configuration, best weights and (when present) metrics
  std::optional<LoadedEventRun> events;  // an event model instead (run is then empty)

  ModelKind kind() const;
  TrainSettings trainSettings() const;
  std::vector<EpochRecord> epochs() const;  // as recorded in metrics.json; empty without it
};

struct RunInfo {
  QString dir;
  QString name;  // the folder's name
  bool sideBySide = false;
  QDateTime modified;          // of the newest file: runs are listed newest first
  QList<ModelRunInfo> models;  // Aaren before the Transformer
  QString problem;             // why the run cannot be used; empty when it can
};

// Sub-folder names of a side-by-side run, in display order.
QStringList sideBySideModelFolders();  // {"aaren", "transformer"}

bool isRunFolder(const QString& dir);  // has a config.json
bool isSideBySideRun(const QString& dir);

// Throws std::runtime_error naming the file and what is wrong with it.
RunInfo readRun(const QString& dir);
// Every run directly inside runsFolder, newest first. A run that cannot be read is listed with
// its problem, so that the user sees it rather than wonders where it went.
QList<RunInfo> findRuns(const QString& runsFolder);

// A new, not yet existing folder inside runsFolder, e.g. "20240521-140307-airpassengers-both".
QString newRunFolder(const QString& runsFolder, const QString& datasetName, const QString& modelsLabel,
                     const QDateTime& when = QDateTime::currentDateTime());

}  // namespace aaren::ui
