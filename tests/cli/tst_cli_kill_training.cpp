// `aaren train` killed with SIGKILL part-way, at several moments: as its first checkpoint appears,
// after the checkpoint was rewritten, and while one of its files is being replaced. Each time the
// run folder holds only whole files (and temporary files that no reader opens), the core loads
// the run and forecasts from it, and the next run into the folder clears the temporary files.
#include <QtTest>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <cmath>

#include "core/io/atomic_file.hpp"
#include "core/forecast/forecast_run.hpp"

using namespace aaren;

namespace {

const QString kData = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_nottem.csv");
constexpr int kWaitMs = 120000;

// A small model on a small series, for as many epochs as it takes to be killed: the learning rate
// still warms up, so validation improves and the checkpoint is rewritten epoch after epoch.
QStringList endlessTraining(const QString& out) {
  return {"train",   "--data",  kData,   "--model",    "aaren",    "--seq-len", "24",       "--horizon",
          "6",       "--d-model", "16",  "--heads",    "2",        "--layers",  "1",        "--d-ff",
          "32",      "--epochs", "1000000", "--patience", "0",      "--schedule", "constant", "--threads",
          "1",       "--out",   out};
}

const QStringList kRunFiles = {"config.json", "loss.csv", "metrics.json", "model.safetensors"};

// Epochs in loss.csv, which is rewritten with each checkpoint; 0 before the first.
int checkpointedEpochs(const QString& dir) {
  QFile file(dir + "/loss.csv");
  if (!file.open(QIODevice::ReadOnly)) return 0;
  return int(file.readAll().count('\n')) - 1;
}

bool holdsATemporaryFile(const QString& dir) {
  for (const QString& name : QDir(dir).entryList(QDir::Files))
    if (is_temporary_file_name(name.toStdString())) return true;
  return false;
}

}  // namespace

class TestCliKillTraining : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH); }

  void killedRunLeavesALoadableModel_data() {
    QTest::addColumn<QString>("moment");
    QTest::newRow("as the first checkpoint appears") << "first";
    QTest::newRow("after the checkpoint was rewritten") << "rewritten";
    QTest::newRow("while a file is being replaced") << "replacing";
  }
  void killedRunLeavesALoadableModel() {
    QFETCH(QString, moment);
    QTemporaryDir root;
    const QString dir = root.filePath("run");
    QProcess training;
    training.setProgram(QStringLiteral(AAREN_CLI_PATH));
    training.setArguments(endlessTraining(dir));
    training.start();
    QVERIFY(training.waitForStarted(-1));

    if (moment == "first") {
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir + "/model.safetensors"), kWaitMs);
    } else if (moment == "rewritten") {
      QTRY_VERIFY_WITH_TIMEOUT(checkpointedEpochs(dir) >= 4, kWaitMs);
    } else {
      // Looked at every millisecond, to catch the moment a temporary file exists, while blocked on
      // the process in between so the training keeps the CPU; if no write is caught within 300
      // checkpoints (or the time limit), the kill still lands between writes and the checks below apply.
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir + "/model.safetensors"), kWaitMs);
      const QDeadlineTimer deadline(kWaitMs);
      while (!holdsATemporaryFile(dir) && checkpointedEpochs(dir) < 300 && training.state() == QProcess::Running &&
             !deadline.hasExpired())
        training.waitForFinished(1);
    }
    QVERIFY2(training.state() == QProcess::Running, training.readAllStandardError().constData());
    training.kill();
    QVERIFY(training.waitForFinished(-1));
    QCOMPARE(training.exitStatus(), QProcess::CrashExit);

    for (const QString& name : QDir(dir).entryList(QDir::Files))
      QVERIFY2(kRunFiles.contains(name) || is_temporary_file_name(name.toStdString()), qPrintable(name));
    const LoadedForecastRun run = load_forecast_run(dir.toStdString());
    QCOMPARE(run.config.model.d_model, 16);
    // metrics.json follows each checkpoint: a kill between the two leaves the one before it.
    if (run.has_metrics) {
      QVERIFY(run.metrics.best_epoch >= 1);
      QCOMPARE(run.metrics.stop, std::string("running"));
    }
    const ForecastData data = prepare_run_data(run.config, kData.toStdString());
    const WindowForecast forecast = forecast_test_window(run, data, 0);
    QCOMPARE(forecast.forecast.rows, 6);
    for (const double value : forecast.forecast.data) QVERIFY(std::isfinite(value));

    // The next run into the folder starts by clearing what the killed one left half-done.
    QProcess next;
    QStringList arguments = endlessTraining(dir);
    arguments[arguments.indexOf("1000000")] = "1";
    next.start(QStringLiteral(AAREN_CLI_PATH), arguments);
    QVERIFY(next.waitForFinished(-1));
    QVERIFY2(next.exitCode() == 0, next.readAllStandardError().constData());
    QCOMPARE(QDir(dir).entryList(QDir::Files, QDir::Name), kRunFiles);
    QVERIFY(load_forecast_run(dir.toStdString()).metrics.stop == "completed");
  }
};

QTEST_GUILESS_MAIN(TestCliKillTraining)
#include "tst_cli_kill_training.moc"
