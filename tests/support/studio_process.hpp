#pragma once
// Runs the `aaren-studio` executable as a process (ui suites only: they define AAREN_STUDIO_PATH)
// and says how it ended.
#include <QProcess>
#include <QString>
#include <QStringList>

struct StudioRun {
  int exitCode = -1;  // -1 when it did not start or crashed
  QString out;
  QString err;
};

inline StudioRun runStudio(const QStringList& arguments) {
  QProcess process;
  process.start(QStringLiteral(AAREN_STUDIO_PATH), arguments);
  if (!process.waitForFinished(-1)) return {};
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromLocal8Bit(process.readAllStandardOutput()),
          QString::fromLocal8Bit(process.readAllStandardError())};
}
