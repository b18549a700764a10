// `aaren train` where writing fails or memory is short, run as a process: a full disk (a file size
// limit set on the process, which fails writes the way a full disk does) and a read-only output
// folder each give a clear error and leave the previous run's files byte for byte; a configuration
// that cannot fit in memory is refused before anything is written, with the estimate; and a run
// that starts says how much memory it needs.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <functional>

#include "core/forecast/forecast_run_folder.hpp"

namespace {

const QString kData = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_nottem.csv");
// The exit code of a child that could not make the folder read-only; aaren itself never uses it.
constexpr int kCannotMakeReadOnly = 77;

QStringList smallRun(const QString& out) {
  return {"train",    "--data",   kData,  "--model",  "aaren", "--seq-len", "24", "--horizon", "6",
          "--d-model", "16",      "--heads", "2",     "--layers", "1",   "--d-ff",    "32", "--epochs",  "2",
          "--threads", "1",       "--out",   out};
}

// Every file of the folder by name, with its bytes.
QMap<QString, QByteArray> snapshot(const QString& dir) {
  QMap<QString, QByteArray> files;
  for (const QString& name : QDir(dir).entryList(QDir::Files)) {
    QFile file(QDir(dir).filePath(name));
    if (file.open(QIODevice::ReadOnly)) files.insert(name, file.readAll());
  }
  return files;
}

// In the child, before aaren starts: writes past `bytes` fail with EFBIG, as on a full disk.
std::function<void()> fileSizeLimit(rlim_t bytes) {
  return [bytes] {
    rlimit limit{};
    ::getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  };
}

// In the child: the folder becomes read-only for it alone (a private mount namespace in which the
// folder is bind-mounted read-only), since permission bits do not stop root.
std::function<void()> readOnlyFolder(const QString& dir) {
  return [path = QFile::encodeName(dir)] {
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount(path.constData(), path.constData(), nullptr, MS_BIND, nullptr) != 0 ||
        ::mount(nullptr, path.constData(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
      ::_exit(kCannotMakeReadOnly);
  };
}

}  // namespace

class TestCliTrainFailures : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH); }

  void fullDiskKeepsThePreviousRun() {
    QTemporaryDir root;
    const QString dir = root.filePath("run");
    const CliResult first = run_cli(smallRun(dir));
    QVERIFY2(first.exit_code == 0, qPrintable(first.describe()));
    static const QRegularExpression startLine(
        R"(^training aaren on \S+R_nottem\.csv -> \S+, needing about [0-9.]+ (KiB|MiB|GiB) of memory \([0-9.]+ (MiB|GiB|TiB) available\)\n)");
    QVERIFY2(startLine.match(first.out).hasMatch(), qPrintable(first.out));
    const QMap<QString, QByteArray> before = snapshot(dir);
    QCOMPARE(before.keys(), (QStringList{"config.json", "loss.csv", "metrics.json", "model.safetensors"}));
    QVERIFY(before["config.json"].size() + 200 < before["model.safetensors"].size());

    // Too little room even for config.json: the first write fails.
    const CliResult nothing = run_cli(smallRun(dir), {.in_child = fileSizeLimit(256)});
    QVERIFY2(nothing.exit_code == 1 && !nothing.crashed, qPrintable(nothing.describe()));
    QVERIFY2(nothing.err.contains(dir + "/config.json: cannot write (File too large: a file size limit was reached or "
                                        "the disk is full); the previous version is kept"),
             qPrintable(nothing.describe()));
    QCOMPARE(snapshot(dir), before);

    // Room for config.json (the same bytes again) but not for the checkpoint after the first epoch.
    const CliResult part = run_cli(smallRun(dir), {.in_child = fileSizeLimit(rlim_t(before["config.json"].size() + 100))});
    QVERIFY2(part.exit_code == 1 && !part.crashed, qPrintable(part.describe()));
    QVERIFY2(part.err.contains(dir + "/model.safetensors: cannot write (File too large: a file size limit was "
                                     "reached or the disk is full); the previous version is kept"),
             qPrintable(part.describe()));
    QCOMPARE(snapshot(dir), before);
    QCOMPARE(aaren::load_forecast_run(dir.toStdString()).metrics.stop, std::string("completed"));
  }

  void readOnlyFolderKeepsThePreviousRun() {
    QTemporaryDir root;
    const QString dir = root.filePath("run");
    const CliResult first = run_cli(smallRun(dir));
    QVERIFY2(first.exit_code == 0, qPrintable(first.describe()));
    const QMap<QString, QByteArray> before = snapshot(dir);

    CliResult refused;
    if (::geteuid() == 0) {
      refused = run_cli(smallRun(dir), {.in_child = readOnlyFolder(dir)});
      if (refused.exit_code == kCannotMakeReadOnly && refused.err.isEmpty())
        QSKIP("running as root without the right to mount: no folder can be made read-only for the command");
      QVERIFY2(refused.err.contains(dir + ": cannot write into the run folder (Read-only file system)"),
               qPrintable(refused.describe()));
    } else {
      QVERIFY(QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
      refused = run_cli(smallRun(dir));
      QVERIFY(QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
      QVERIFY2(refused.err.contains(dir + ": cannot write into the run folder (Permission denied)"),
               qPrintable(refused.describe()));
    }
    QVERIFY2(refused.exit_code == 1 && !refused.crashed, qPrintable(refused.describe()));
    QCOMPARE(snapshot(dir), before);
  }

  void configurationThatCannotFitIsRefusedWithTheEstimate() {
    QTemporaryDir root;
    QFile series(root.filePath("series.csv"));
    QVERIFY(series.open(QIODevice::WriteOnly));
    series.write("step,value\n");
    for (int i = 0; i < 90000; ++i) series.write(QByteArray::number(i) + ',' + QByteArray::number(i * 37 % 101) + '\n');
    series.close();
    const QString dir = root.filePath("run");
    const CliResult refused =
        run_cli({"train", "--data", series.fileName(), "--model", "transformer", "--seq-len", "60000", "--horizon", "1",
                "--threads", "1", "--out", dir});
    QVERIFY2(refused.exit_code == 1 && !refused.crashed, qPrintable(refused.describe()));
    static const QRegularExpression message(
        R"(^aaren: error: training needs about [0-9.]+ (GiB|TiB) of memory, but only [0-9.]+ \S+ is available: )");
    QVERIFY2(message.match(refused.err).hasMatch(), qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("Use a shorter --seq-len"), qPrintable(refused.describe()));
    QVERIFY2(!refused.out.contains("training transformer"), qPrintable(refused.describe()));
    QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList{});
  }

  // `aaren forecast --run` on the folder of `train --model all` names the runs inside.
  void forecastOfASideBySideRunNamesItsModels() {
    QTemporaryDir root;
    const QString run = root.filePath("all");
    for (const char* model : {"aaren", "transformer", "linear"}) {
      QVERIFY(QDir().mkpath(run + "/" + model));
      QFile config(run + "/" + model + "/config.json");
      QVERIFY(config.open(QIODevice::WriteOnly));
    }
    const CliResult refused = run_cli({"forecast", "--run", run, "--data", kData, "--out", root.filePath("f.csv")});
    QVERIFY2(refused.exit_code == 2 && !refused.crashed, qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains(run + " holds the runs of several models side by side: give --run " + run +
                                  "/aaren, --run " + run + "/transformer or --run " + run + "/linear"),
             qPrintable(refused.describe()));
  }
};

QTEST_GUILESS_MAIN(TestCliTrainFailures)
#include "tst_cli_train_failures.moc"
