#include "ui/recent_files.hpp"

#include <QFileInfo>

namespace aaren::ui {

QStringList withRecentFile(const QStringList& files, const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList result{absolute};
  for (const QString& file : files) {
    if (result.size() == kMaxRecentFiles) break;
    if (QFileInfo(file).absoluteFilePath() != absolute) result.append(file);
  }
  return result;
}

QStringList withoutMissingFiles(const QStringList& files) {
  QStringList existing;
  for (const QString& file : files)
    if (QFileInfo(file).isFile()) existing.append(file);
  return existing;
}

}  // namespace aaren::ui
