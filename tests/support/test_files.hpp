#pragma once
// Files the suites read: the bundled datasets, and files written on the fly into a temporary folder.
#include <QDate>
#include <QFile>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cmath>
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

// A daily series of `rows` days from 2020-01-01 with two channels, "load" (a weekly cycle on a slow
// rise) and "temperature" (a monthly cycle), written to `path`, which is returned.
inline QString writeDailySeries(const QString& path, int rows) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  QTextStream out(&file);
  out << "date,load,temperature\n";
  const QDate first(2020, 1, 1);
  for (int t = 0; t < rows; ++t)
    out << first.addDays(t).toString(Qt::ISODate) << ',' << 10 + 3 * std::sin(2 * M_PI * t / 7.0) + 0.01 * t << ','
        << 20 + 5 * std::cos(2 * M_PI * t / 30.0) << '\n';
  return path;
}
