#include "ui/run_list.hpp"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>
#include <exception>
#include <stdexcept>

#include "ui/chart_export.hpp"
#include "ui/events/event_forecasts.hpp"
#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

namespace {

const QString kConfigFile = QStringLiteral("config.json");

QDateTime newestFileTime(const QString& dir) {
  QDateTime newest = QFileInfo(dir).lastModified();
  QDirIterator files(dir, QDir::Files, QDirIterator::Subdirectories);
  while (files.hasNext()) newest = std::max(newest, files.nextFileInfo().lastModified());
  return newest;
}

ModelRunInfo readModelRun(const QString& dir) {
  ModelRunInfo info;
  info.dir = QDir(dir).absolutePath();
  const std::string path = QDir::toNativeSeparators(dir).toStdString();
  if (isEventRunFolder(dir)) info.events = load_event_run(path);
  else info.run = load_run(path);
  info.modelName = displayName(info.kind());
  return info;
}

}  // namespace

ModelKind ModelRunInfo::kind() const { return events ? events->config.model.backbone.kind : run.config.model.kind; }

TrainSettings ModelRunInfo::trainSettings() const { return events ? events->config.train : run.config.train; }

std::vector<EpochRecord> ModelRunInfo::epochs() const {
  if (events) return events->has_metrics ? events->metrics.epochs : std::vector<EpochRecord>();
  return run.has_metrics ? run.metrics.epochs : std::vector<EpochRecord>();
}

QStringList sideBySideModelFolders() { return {QStringLiteral("aaren"), QStringLiteral("transformer")}; }

bool isRunFolder(const QString& dir) { return QFileInfo(QDir(dir).filePath(kConfigFile)).isFile(); }

bool isSideBySideRun(const QString& dir) {
  const QStringList folders = sideBySideModelFolders();
  return !isRunFolder(dir) &&
         std::any_of(folders.begin(), folders.end(), [&](const QString& name) { return isRunFolder(QDir(dir).filePath(name)); });
}

RunInfo readRun(const QString& dir) {
  const QFileInfo folder(dir);
  if (!folder.isDir()) throw std::runtime_error(QStringLiteral("%1: no such run folder").arg(dir).toStdString());
  RunInfo info;
  info.dir = folder.absoluteFilePath();
  info.name = folder.fileName();
  info.modified = newestFileTime(info.dir);
  if (isRunFolder(dir)) {
    info.models << readModelRun(dir);
    return info;
  }
  if (!isSideBySideRun(dir))
    throw std::runtime_error(QStringLiteral("%1: not a run folder (it has no config.json, and no aaren/ or transformer/ "
                                            "run inside)")
                                 .arg(dir)
                                 .toStdString());
  info.sideBySide = true;
  for (const QString& name : sideBySideModelFolders()) {
    const QString modelDir = QDir(dir).filePath(name);
    if (isRunFolder(modelDir)) info.models << readModelRun(modelDir);
  }
  return info;
}

QList<RunInfo> findRuns(const QString& runsFolder) {
  QList<RunInfo> runs;
  const QDir folder(runsFolder);
  for (const QFileInfo& entry : folder.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    const QString dir = entry.absoluteFilePath();
    if (!isRunFolder(dir) && !isSideBySideRun(dir)) continue;
    try {
      runs << readRun(dir);
    } catch (const std::exception& error) {
      RunInfo broken;
      broken.dir = dir;
      broken.name = entry.fileName();
      broken.sideBySide = isSideBySideRun(dir);
      broken.modified = newestFileTime(dir);
      broken.problem = QString::fromUtf8(error.what());
      runs << broken;
    }
  }
  std::stable_sort(runs.begin(), runs.end(), [](const RunInfo& a, const RunInfo& b) { return a.modified > b.modified; });
  return runs;
}

QString newRunFolder(const QString& runsFolder, const QString& datasetName, const QString& modelsLabel,
                     const QDateTime& when) {
  const QString stem = when.toString(QStringLiteral("yyyyMMdd-HHmmss")) + QLatin1Char('-') + slugify(datasetName) +
                       QLatin1Char('-') + slugify(modelsLabel);
  const QDir folder(runsFolder);
  QString candidate = folder.filePath(stem);
  for (int n = 2; QFileInfo::exists(candidate); ++n) candidate = folder.filePath(stem + QStringLiteral("-%1").arg(n));
  return candidate;
}

}  // namespace aaren::ui
