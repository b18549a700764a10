// `aaren train --features M|S|MS` (the Time-Series-Library's --features, with --target): S and MS
// train on a series of several channels and forecast the target alone, in the run folder, in
// metrics.json, in `aaren forecast`'s CSV and its test metrics; runs written before the choice are
// M and forecast as before; bad values and missing targets are refused with the exit codes of the
// other options (2 for usage, 1 for the data or the run folder).
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

namespace {

const QString kSeatbelts = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_Seatbelts.csv");
const QStringList kColumns = {"DriversKilled", "front", "rear"};
constexpr int kHorizon = 6;

QStringList smallRun(const QString& out, const QStringList& more = {}) {
  return QStringList{"train",     "--data",   kSeatbelts, "--columns", kColumns.join(','), "--model", "aaren",
                     "--seq-len", "24",       "--horizon", QString::number(kHorizon),      "--d-model", "16",
                     "--heads",   "2",        "--layers",  "1",        "--d-ff",           "32",
                     "--epochs",  "1",        "--threads", "1",        "--out",            out} +
         more;
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

bool writeJson(const QString& path, const QJsonObject& object) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(QJsonDocument(object).toJson()) > 0;
}

QString readText(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The channel column (the third) of a forecast CSV's rows.
QStringList csvChannels(const QString& path) {
  QStringList channels;
  const QStringList lines = readText(path).split('\n', Qt::SkipEmptyParts);
  for (int i = 1; i < lines.size(); ++i) channels << lines[i].split(',').value(2);
  return channels;
}

// "test MSE 0.1234 MAE ..." as `aaren forecast --test-metrics` prints it.
double printedTestMse(const QString& out) {
  const int at = int(out.indexOf("test MSE "));
  return at < 0 ? -1 : out.mid(at + 9).section(' ', 0, 0).toDouble();
}

}  // namespace

class TestCliFeatures : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH); }

  void targetAloneIsTrainedAndForecast_data() {
    QTest::addColumn<QString>("features");
    QTest::addColumn<QStringList>("channels");  // config.json's, the model's input
    QTest::newRow("S") << "S" << QStringList{"front"};
    QTest::newRow("MS") << "MS" << kColumns;
  }
  void targetAloneIsTrainedAndForecast() {
    QFETCH(QString, features);
    QFETCH(QStringList, channels);
    QTemporaryDir dir;
    const QString run = dir.filePath("run");
    const CliResult trained = run_cli(smallRun(run, {"--target", "front", "--features", features}));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));

    const QJsonObject config = readJson(run + "/config.json");
    const QJsonObject data = config.value("data").toObject();
    QCOMPARE(data.value("features").toString(), features);
    QCOMPARE(data.value("target").toString(), QStringLiteral("front"));
    QCOMPARE(data.value("channels").toVariant().toStringList(), channels);
    QCOMPARE(config.value("model").toObject().value("channels").toInt(), int(channels.size()));

    // The errors of what is forecast: the target alone, the baselines on it too.
    const QJsonObject metrics = readJson(run + "/metrics.json");
    QCOMPARE(metrics.value("test").toObject().value("channel_mse").toArray().size(), 1);
    const QJsonObject comparison = metrics.value("test_comparison").toObject();
    for (const char* forecaster : {"model", "last_value"})
      QCOMPARE(comparison.value(forecaster).toObject().value("original").toObject().value("channel_mae").toArray().size(), 1);
    QVERIFY2(trained.out.contains("\nfront\n"), qPrintable(trained.out));  // the comparison's one block
    QVERIFY2(!trained.out.contains("all channels"), qPrintable(trained.out));

    for (const QStringList& which : {QStringList{"--window", "0"}, QStringList{"--last"}}) {
      const QString csv = dir.filePath("forecast.csv");
      const CliResult forecast = run_cli(QStringList{"forecast", "--run", run, "--data", kSeatbelts, "--out", csv,
                                                     "--test-metrics"} +
                                         which);
      QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
      QCOMPARE(csvChannels(csv), QStringList(kHorizon, QStringLiteral("front")));
      QVERIFY2(forecast.out.contains(QStringLiteral("wrote %1 steps x 1 channels").arg(kHorizon)), qPrintable(forecast.out));
      const double stored = metrics.value("test").toObject().value("mse").toDouble();
      QVERIFY2(std::abs(printedTestMse(forecast.out) - stored) <= 1e-4 * std::max(1.0, stored),
               qPrintable(forecast.out));
    }
  }

  // Features M is the default, and a run folder written before the field forecasts every channel
  // exactly as before.
  void runsWithoutFeaturesForecastEveryChannel() {
    QTemporaryDir dir;
    const QString run = dir.filePath("run");
    const CliResult trained = run_cli(smallRun(run, {"--target", "front"}));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    QJsonObject config = readJson(run + "/config.json");
    QCOMPARE(config.value("data").toObject().value("features").toString(), QStringLiteral("M"));
    const QString before = dir.filePath("before.csv"), after = dir.filePath("after.csv");
    const QStringList forecast = {"forecast", "--run", run, "--data", kSeatbelts, "--window", "3", "--out"};
    const CliResult first = run_cli(forecast + QStringList{before});
    QVERIFY2(first.exited_with(0), qPrintable(first.describe()));
    QJsonObject data = config.value("data").toObject();
    data.remove("features");
    config.insert("data", data);
    QVERIFY(writeJson(run + "/config.json", config));
    const CliResult second = run_cli(forecast + QStringList{after});
    QVERIFY2(second.exited_with(0), qPrintable(second.describe()));
    QCOMPARE(readText(after), readText(before));
    QCOMPARE(csvChannels(after).size(), kHorizon * int(kColumns.size()));
    QCOMPARE(csvChannels(after).mid(0, 3), kColumns);
  }

  void badFeaturesAreRefused_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown mode") << QStringList{"--features", "SM", "--target", "front"} << 2
                                  << "--features must be M, S or MS, got 'SM'";
    QTest::newRow("lower case") << QStringList{"--features", "ms", "--target", "front"} << 2
                                << "--features must be M, S or MS, got 'ms'";
    QTest::newRow("S without a target") << QStringList{"--features", "S"} << 2
                                        << "--features S forecasts the target from its own past alone: name it with "
                                           "--target NAME";
    QTest::newRow("MS without a target") << QStringList{"--features", "MS"} << 2
                                         << "--features MS forecasts the target from every channel: name it with "
                                            "--target NAME";
    QTest::newRow("MS on the GPU") << QStringList{"--features", "MS", "--target", "front", "--device", "cuda"} << 2
                                   << "--device cuda: a model of features MS (every channel in, the target alone "
                                      "forecast) trains and forecasts on the CPU only; use --device cpu or auto";
    QTest::newRow("a target not in the file") << QStringList{"--features", "S", "--target", "nosuch"} << 1
                                              << "unknown column 'nosuch'";
    QTest::newRow("a target left out of the columns")
        << QStringList{"--features", "MS", "--target", "kms"} << 1 << "the target 'kms' is not among the chosen columns";
  }
  void badFeaturesAreRefused() {
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString run = dir.filePath("run");
    const CliResult result = run_cli(smallRun(run, options));
    QVERIFY2(result.exited_with(exitCode), qPrintable(result.describe()));
    QVERIFY2(result.err.contains(message), qPrintable(result.describe()));
    QVERIFY(!QFile::exists(run + "/model.safetensors"));
  }

  void unknownFeaturesInARunFolderAreRefused() {
    QTemporaryDir dir;
    const QString run = dir.filePath("run");
    const CliResult trained = run_cli(smallRun(run));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    QJsonObject config = readJson(run + "/config.json");
    QJsonObject data = config.value("data").toObject();
    data.insert("features", "MM");
    config.insert("data", data);
    QVERIFY(writeJson(run + "/config.json", config));
    const CliResult forecast =
        run_cli({"forecast", "--run", run, "--data", kSeatbelts, "--out", dir.filePath("f.csv")});
    QVERIFY2(forecast.exited_with(1), qPrintable(forecast.describe()));
    QVERIFY2(forecast.err.contains("config.json (data): field 'features' must be M, S or MS, got 'MM'"),
             qPrintable(forecast.describe()));
  }
};

QTEST_GUILESS_MAIN(TestCliFeatures)
#include "tst_cli_features.moc"
