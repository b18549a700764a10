#include "ui/run_list.hpp"

#include <QDir>
#include <QFileInfo>

#include "ui/chart_export.hpp"
#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

JobWork listRunsWork(const QString& folder) {
  return [folder](JobContext&) {
    auto listing = std::make_shared<RunListing>();
    listing->folder = folder;
    listing->runs = list_runs(QDir::toNativeSeparators(folder).toStdString());
    return QVariant::fromValue(SharedRunListing(std::move(listing)));
  };
}

RunEntry readRunEntry(const QString& dir) { return read_run_entry(QDir::toNativeSeparators(dir).toStdString()); }

QString runPath(const std::string& path) { return QDir::fromNativeSeparators(QString::fromStdString(path)); }

QString modelName(const ModelRunEntry& model) { return displayName(model.kind()); }

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
