// `aaren train --task events` and `aaren forecast --task events` run as real processes on the
// bundled event logs with tiny models: the run folder's four files, the printed metrics, the
// forecast CSV (one row per test event), both models side by side, and the errors: a malformed log
// names its line and column (exit 1), a run of the other task is refused (exit 1), a bad option is
// a usage error (exit 2).
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace aaren {

namespace {

QString bundled(const char* name) { return QStringLiteral(AAREN_SOURCE_DIR "/datasets/") + name; }

// A model small enough to train in moments.
QStringList tiny_model() {
  return {"--d-model", "8", "--heads", "2", "--layers", "1", "--d-ff", "16", "--mixture", "2", "--time-frequencies",
          "2", "--window", "16", "--epochs", "2", "--batch", "4", "--seed", "3"};
}

QJsonObject read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

QStringList read_lines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

void verify_run_folder(const QString& dir) {
  for (const char* name : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
    QVERIFY2(QFile::exists(dir + "/" + name), qPrintable(dir + "/" + name));
  QCOMPARE(read_json(dir + "/config.json").value("task").toString(), QStringLiteral("events"));
  const QJsonObject metrics = read_json(dir + "/metrics.json");
  QCOMPARE(metrics.value("epochs").toArray().size(), 2);
  QVERIFY(metrics.value("test").toObject().value("nll_per_event").isDouble());
  QVERIFY(metrics.value("test").toObject().value("rmse").toDouble() > 0);
  QCOMPARE(read_lines(dir + "/loss.csv").size(), 3);
}

}  // namespace

class TestCliEvents : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void coalTrainsAndForecasts() {
    const QString run = dir_.path() + "/coal";
    const CliResult train = run_cli(QStringList{"train", "--task", "events", "--data", bundled("coal_mining_disasters.csv"),
                                                "--out", run} +
                                    tiny_model());
    QVERIFY2(train.exited() && train.exit_code == 0, qPrintable(train.describe()));
    verify_run_folder(run);
    // 191 events split by time 114 / 39 / 38; each part's first event is context only.
    QVERIFY2(train.out.contains("read 191 events in 1 sequence") && train.out.contains("by time") &&
                 train.out.contains("(years)"),
             qPrintable(train.describe()));
    QVERIFY2(train.out.contains(QRegularExpression(QStringLiteral("test metrics over 37 events \\(time in years\\)"))),
             qPrintable(train.describe()));
    QVERIFY2(train.out.contains(QRegularExpression(QStringLiteral("NLL/event +-?[0-9]+\\.[0-9]{4}"))),
             qPrintable(train.describe()));
    QVERIFY2(train.out.contains("Poisson process fitted to the training part"), qPrintable(train.describe()));

    const QString csv = dir_.path() + "/coal-forecast.csv";
    const CliResult forecast = run_cli({"forecast", "--task", "events", "--run", run, "--out", csv,
                                        "--true-process", "poisson"});
    QVERIFY2(forecast.exited() && forecast.exit_code == 0, qPrintable(forecast.describe()));
    const QStringList lines = read_lines(csv);
    QCOMPARE(lines.size(), 1 + 38);
    QCOMPARE(lines.front(),
             QStringLiteral("sequence,event,time,next_time,predicted_next_time,nll,predicted_mark,p_actual_mark"));
    const QStringList first = lines[1].split(',');
    QCOMPARE(first.size(), 8);
    QCOMPARE(first[1], QStringLiteral("0"));
    QVERIFY(first[3].toDouble() > first[2].toDouble());  // the actual next time
    QVERIFY(first[4].toDouble() > first[2].toDouble());  // the predicted mean next time
    QVERIFY(!first[5].isEmpty() && first[6].isEmpty());  // an NLL; no marks
    QVERIFY(lines.back().split(',')[3].isEmpty());       // nothing known after the last event
    // The streamed forecasts give the test metrics training reported.
    const QRegularExpression nll(QStringLiteral("NLL/event +(-?[0-9]+\\.[0-9]{4})"));
    QCOMPARE(nll.match(forecast.out).captured(1), nll.match(train.out.mid(train.out.indexOf("test metrics"))).captured(1));
    QVERIFY2(forecast.out.contains("true process Poisson (rate 1): NLL/event"), qPrintable(forecast.describe()));
  }

  void geyserTrainsBothModelsSideBySide() {
    const QString run = dir_.path() + "/geyser";
    const CliResult train = run_cli(QStringList{"train", "--task", "events", "--data",
                                                bundled("old_faithful_geyser.csv"), "--out", run, "--model", "both"} +
                                    tiny_model());
    QVERIFY2(train.exited() && train.exit_code == 0, qPrintable(train.describe()));
    verify_run_folder(run + "/aaren");
    verify_run_folder(run + "/transformer");
    QVERIFY2(train.out.contains("feature 'duration_min'") && train.out.contains("(minutes)"),
             qPrintable(train.describe()));
    QVERIFY2(train.out.contains(QRegularExpression(QStringLiteral("aaren +transformer"))), qPrintable(train.describe()));
    QCOMPARE(read_json(run + "/aaren/config.json").value("model").toObject().value("feature").toBool(), true);

    const CliResult both = run_cli({"forecast", "--task", "events", "--run", run});
    QCOMPARE(both.exit_code, 2);
    QVERIFY2(both.err.contains("several models side by side"), qPrintable(both.describe()));
    const CliResult one = run_cli({"forecast", "--task", "events", "--run", run + "/transformer"});
    QVERIFY2(one.exited() && one.exit_code == 0 && one.out.contains("test metrics over 58 events"),
             qPrintable(one.describe()));
  }

  void malformedLogNamesLineAndColumn() {
    const QString path = dir_.path() + "/bad.csv";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("time,kind\n1.0,a\n2.5,b\nsoon,a\n4.0,b\n");
    file.close();
    const CliResult r = run_cli(QStringList{"train", "--task", "events", "--data", path, "--out",
                                            dir_.path() + "/bad-run"} +
                                tiny_model());
    QVERIFY2(r.exited() && r.exit_code == 1, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("line 4") && r.err.contains("column 'time'") && r.err.contains("'soon'"),
             qPrintable(r.describe()));
  }

  void runsOfTheOtherTaskAreRefused() {
    const QString forecasting = dir_.path() + "/forecasting";
    const CliResult train = run_cli({"train", "--data", bundled("R_nottem.csv"), "--model", "aaren", "--out",
                                     forecasting, "--seq-len", "12", "--horizon", "4", "--d-model", "8", "--heads",
                                     "2", "--layers", "1", "--d-ff", "16", "--epochs", "1"});
    QVERIFY2(train.exited() && train.exit_code == 0, qPrintable(train.describe()));
    const CliResult as_events = run_cli({"forecast", "--task", "events", "--run", forecasting});
    QVERIFY2(as_events.exit_code == 1 && as_events.err.contains("a forecasting run, not an event-model run"),
             qPrintable(as_events.describe()));

    const QString events = dir_.path() + "/events-run";
    const CliResult train_events = run_cli(QStringList{"train", "--task", "events", "--data",
                                                       bundled("coal_mining_disasters.csv"), "--out", events} +
                                           tiny_model());
    QVERIFY2(train_events.exited() && train_events.exit_code == 0, qPrintable(train_events.describe()));
    const CliResult as_forecast = run_cli({"forecast", "--run", events, "--data", bundled("coal_mining_disasters.csv"),
                                           "--out", dir_.path() + "/never.csv"});
    QVERIFY2(as_forecast.exit_code == 1 && as_forecast.err.contains("an event-model run, not a forecasting run"),
             qPrintable(as_forecast.describe()));
  }

  void badOptionsAreUsageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    const QString coal = bundled("coal_mining_disasters.csv");
    QTest::newRow("task") << QStringList{"train", "--task", "stories", "--data", coal, "--out", "x"}
                          << QStringLiteral("--task must be forecast, events, classify or rl");
    QTest::newRow("model") << QStringList{"train", "--task", "events", "--data", coal, "--out", "x", "--model", "rnn"}
                           << QStringLiteral("--model must be aaren, transformer, linear, both or all");
    QTest::newRow("mark-use") << QStringList{"train", "--task", "events", "--data", coal, "--out", "x",
                                             "--mark-use", "color"}
                              << QStringLiteral("--mark-use must be");
    QTest::newRow("horizon") << QStringList{"train", "--task", "events", "--data", coal, "--out", "x", "--horizon",
                                            "4"}
                             << QStringLiteral("--horizon belongs to forecasting");
    QTest::newRow("window") << QStringList{"train", "--task", "events", "--data", coal, "--out", "x", "--window", "1"}
                            << QStringLiteral("--window must be between 2");
    QTest::newRow("true-process") << QStringList{"forecast", "--task", "events", "--run", "x", "--true-process",
                                                 "hawkes9"}
                                  << QStringLiteral("--true-process must be one of hawkes1, poisson");
  }

  void badOptionsAreUsageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited() && r.exit_code == 2 && r.err.contains(expected), qPrintable(r.describe()));
  }

 private:
  QTemporaryDir dir_;
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestCliEvents)
#include "tst_cli_events.moc"
