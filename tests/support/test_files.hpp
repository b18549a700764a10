#pragma once
// Files the suites read: the bundled datasets, and files written on the fly into a temporary folder.
#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

// A dataset bundled with the repository (datasets/NAME).
inline std::string bundled(const std::string& name) { return std::string(AAREN_SOURCE_DIR) + "/datasets/" + name; }

// Writes `bytes` as they are (no newline translation) to DIR/NAME and returns the path.
inline std::string write_file(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
  const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  return path;
}

// Whether any of `lines` (warnings, remarks) mentions `fragment`.
inline bool any_contains(const std::vector<std::string>& lines, const std::string& fragment) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return line.find(fragment) != std::string::npos; });
}
