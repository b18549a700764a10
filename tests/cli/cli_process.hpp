#pragma once
// Runs the `aaren` command as a process for the command-line suites, and says how it ended.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <functional>

struct CliResult {
  bool started = false;
  bool crashed = false;
  int exit_code = -1;
  QString out, err;

  bool exited() const { return started && !crashed; }
  bool exited_with(int code) const { return exited() && exit_code == code; }
  // For a failed check's message: how it ended, the end of stdout and the start of stderr.
  QString describe() const {
    if (!started) return QStringLiteral("could not start ") + QStringLiteral(AAREN_CLI_PATH);
    return QStringLiteral("%1, exit code %2\n--- stdout:\n%3\n--- stderr:\n%4")
        .arg(crashed ? QStringLiteral("CRASHED") : QStringLiteral("exited"))
        .arg(exit_code)
        .arg(out.right(3000), err.left(2000));
  }
};

struct CliRunOptions {
  bool without_display = false;    // runs with DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset
  std::function<void()> in_child;  // runs in the child just before it starts aaren (resource limits, ...)
};

inline CliResult run_cli(const QStringList& args, const CliRunOptions& options = {}) {
  QProcess process;
  process.setProgram(QStringLiteral(AAREN_CLI_PATH));
  process.setArguments(args);
  if (options.without_display) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
      environment.remove(QString::fromLatin1(name));
    process.setProcessEnvironment(environment);
  }
  if (options.in_child) process.setChildProcessModifier(options.in_child);
  process.start();
  CliResult result;
  result.started = process.waitForStarted(-1);
  if (!result.started) return result;
  process.waitForFinished(-1);
  result.crashed = process.exitStatus() == QProcess::CrashExit;
  result.exit_code = process.exitCode();
  result.out = QString::fromUtf8(process.readAllStandardOutput());
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}
