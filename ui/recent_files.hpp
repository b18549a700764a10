#pragma once
// The "Open Recent" list: most recent first, each file once, at most kMaxRecentFiles entries.
#include <QStringList>

namespace aaren::ui {

inline constexpr int kMaxRecentFiles = 10;

// Puts path (made absolute) in front, removes its older entry and cuts the list to the maximum.
QStringList withRecentFile(const QStringList& files, const QString& path);

// Files that were moved or deleted since they were opened would only give an error when chosen.
QStringList withoutMissingFiles(const QStringList& files);

}  // namespace aaren::ui
