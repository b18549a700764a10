#pragma once
// Runs the `aaren-studio` executable as a process (ui suites only: they define AAREN_STUDIO_PATH)
// and says how it ended.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

struct StudioRun {
  int exitCode = -1;  // -1 when it did not start or crashed
  QString out;
  QString err;
};

// The app's settings go to configHome (XDG_CONFIG_HOME), a fresh temporary folder when none is
// given, so the user's own settings stay untouched.
inline StudioRun runStudio(const QStringList& arguments, const QString& configHome = {}) {
  QTemporaryDir scratch;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome.isEmpty() ? scratch.path() : configHome);
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(AAREN_STUDIO_PATH), arguments);
  if (!process.waitForFinished(-1)) return {};
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromLocal8Bit(process.readAllStandardOutput()),
          QString::fromLocal8Bit(process.readAllStandardError())};
}
