#include "ui/bundled_datasets.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

#include "ui/events/event_import.hpp"

namespace aaren::ui {

namespace {

const QString kOverrideVariable = QStringLiteral("AAREN_DATASETS_DIR");
const QString kFolderName = QStringLiteral("datasets");
const QString kReadme = QStringLiteral("README.md");

}  // namespace

QString bundledDatasetsDir() {
  const QString override = qEnvironmentVariable(kOverrideVariable.toUtf8().constData());
  if (!override.isEmpty()) return QDir(override).exists() ? QDir(override).absolutePath() : QString();

  const QDir executableDir(QCoreApplication::applicationDirPath());
  // Beside the executable, installed under share/, the source tree above build/<subfolder>/, or
  // the source tree this was built from (a build folder anywhere else).
  const QStringList candidates{kFolderName, QStringLiteral("../share/aaren-studio/") + kFolderName,
                               QStringLiteral("../") + kFolderName, QStringLiteral("../../") + kFolderName,
                               QStringLiteral(AAREN_SOURCE_DATASETS_DIR)};
  for (const QString& candidate : candidates) {
    const QFileInfo info(executableDir.filePath(candidate));  // an absolute candidate stays as it is
    if (info.isDir()) return info.canonicalFilePath();
  }
  return {};
}

QList<BundledDataset> bundledDatasets(const QString& dir) {
  QList<BundledDataset> datasets;
  if (dir.isEmpty()) return datasets;
  const QDir root(dir);
  QDirIterator it(dir, {QStringLiteral("*.csv")}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QFileInfo file(it.next());
    QString group = root.relativeFilePath(file.absolutePath());
    if (group == QLatin1String(".")) group.clear();
    datasets.append({group, file.completeBaseName(), file.absoluteFilePath(), looksLikeEventLog(file.absoluteFilePath())});
  }
  std::sort(datasets.begin(), datasets.end(), [](const BundledDataset& a, const BundledDataset& b) {
    const int byGroup = a.group.compare(b.group, Qt::CaseInsensitive);
    return byGroup != 0 ? byGroup < 0 : a.name.compare(b.name, Qt::CaseInsensitive) < 0;
  });
  return datasets;
}

QString datasetCredits(const QString& dir) {
  if (dir.isEmpty())
    return QCoreApplication::translate("aaren::ui", "No datasets folder was found next to the application, so no "
                                                   "dataset credits can be shown.");
  QFile readme(QDir(dir).filePath(kReadme));
  if (!readme.open(QIODevice::ReadOnly | QIODevice::Text))
    return QCoreApplication::translate("aaren::ui", "The dataset credits '%1' cannot be read: %2.")
        .arg(readme.fileName(), readme.errorString());
  return QString::fromUtf8(readme.readAll());
}

}  // namespace aaren::ui
