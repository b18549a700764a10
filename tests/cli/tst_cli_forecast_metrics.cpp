// `aaren train` and `aaren forecast --test-metrics` report the test errors people can read: scaled
// and in the data's units, overall and per channel, beside the last value repeated and the seasonal
// naive forecast; metrics.json keeps the same numbers; the forecast past the end continues the
// data's dates (row numbers without them); runs written before these fields still forecast.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <cmath>

namespace {

const QString kAirPassengers = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_AirPassengers.csv");
const QString kSeatbelts = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_Seatbelts.csv");

QStringList smallRun(const QString& data, const QString& out, const QStringList& more = {}) {
  return QStringList{"train",     "--data", data, "--model", "aaren",    "--seq-len", "24", "--horizon", "12",
                     "--d-model", "16",     "--heads", "2",  "--layers", "1",  "--d-ff",    "32",
                     "--epochs",  "1",      "--threads", "1", "--out",  out} +
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

// The table's rows under `block` (a channel's name or "all channels ..."): label -> its four numbers
// (scaled MSE, scaled MAE, original MSE, original MAE).
QMap<QString, QList<double>> tableBlock(const QString& out, const QString& block) {
  QMap<QString, QList<double>> rows;
  const QStringList lines = out.split('\n');
  int at = -1;
  for (int i = 0; i < lines.size(); ++i)
    if (lines[i].startsWith(block)) at = i;  // the last such block: forecast prints the table last
  for (int i = at + 1; at >= 0 && i < lines.size() && lines[i].startsWith("  "); ++i) {
    QStringList words = lines[i].split(' ', Qt::SkipEmptyParts);
    if (words.size() < 5) break;
    QList<double> numbers;
    for (int k = int(words.size()) - 4; k < words.size(); ++k) numbers << words[k].toDouble();
    rows.insert(words.mid(0, words.size() - 4).join(' '), numbers);
  }
  return rows;
}

bool close(double printed, double stored) {
  return std::abs(printed - stored) <= 1e-5 * std::max(1.0, std::abs(stored));
}

QList<double> storedRow(const QJsonObject& units, int channel) {
  QList<double> numbers;
  for (const char* part : {"scaled", "original"})
    for (const char* field : {"mse", "mae"}) {
      const QJsonObject metrics = units.value(part).toObject();
      numbers << (channel < 0 ? metrics.value(field).toDouble()
                              : metrics.value(QStringLiteral("channel_") + field).toArray().at(channel).toDouble());
    }
  return numbers;
}

QStringList csvColumn(const QString& path, int column) {
  QFile file(path);
  QStringList values;
  if (!file.open(QIODevice::ReadOnly)) return values;
  const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
  for (int i = 1; i < lines.size(); ++i) values << lines[i].split(',').value(column);
  return values;
}

}  // namespace

class TestCliForecastMetrics : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH); }

  void monthlySeriesAgainstBothBaselines() {
    QTemporaryDir dir;
    const QString run = dir.filePath("air");
    const CliResult trained = run_cli(smallRun(kAirPassengers, run));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    QVERIFY2(trained.out.contains("seasonal naive (12)"), qPrintable(trained.describe()));

    const QJsonObject metrics = readJson(run + "/metrics.json");
    const QJsonObject comparison = metrics.value("test_comparison").toObject();
    QCOMPARE(comparison.value("seasonal_period").toObject().value("length").toInt(), 12);
    QCOMPARE(comparison.value("seasonal_period").toObject().value("source").toString(), QStringLiteral("dates"));
    QCOMPARE(metrics.value("test").toObject().value("channel_mse").toArray().size(), 1);
    QCOMPARE(comparison.value("model").toObject().value("scaled").toObject().value("mse").toDouble(),
             metrics.value("test").toObject().value("mse").toDouble());

    const QString forecastCsv = dir.filePath("future.csv");
    const CliResult forecast = run_cli(
        {"forecast", "--run", run, "--data", kAirPassengers, "--last", "--out", forecastCsv, "--test-metrics"});
    QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    const QMap<QString, QList<double>> table = tableBlock(forecast.out, "AirPassengers");
    QCOMPARE(table.keys(), (QStringList{"aaren", "last value", "seasonal naive (12)"}));
    const QMap<QString, QString> stored = {
        {"aaren", "model"}, {"last value", "last_value"}, {"seasonal naive (12)", "seasonal_naive"}};
    for (auto it = stored.begin(); it != stored.end(); ++it) {
      const QList<double> printed = table.value(it.key()), expected = storedRow(comparison.value(it.value()).toObject(), -1);
      for (int k = 0; k < 4; ++k)
        QVERIFY2(close(printed[k], expected[k]),
                 qPrintable(QStringLiteral("%1, column %2: printed %3, metrics.json %4\n%5")
                                .arg(it.key())
                                .arg(k)
                                .arg(printed[k])
                                .arg(expected[k])
                                .arg(forecast.out)));
    }
    // The original units are the scaled errors in passengers: far larger than the z-scores.
    QVERIFY(table.value("aaren")[2] > 100 * table.value("aaren")[0]);
    // The season of monthly airline passengers makes the value a year earlier the better baseline.
    QVERIFY(table.value("seasonal naive (12)")[3] < table.value("last value")[3]);

    const QStringList dates = csvColumn(forecastCsv, 0);
    QCOMPARE(dates.size(), 12);
    QCOMPARE(dates.first(), QStringLiteral("1961-01"));
    QCOMPARE(dates.last(), QStringLiteral("1961-12"));
  }

  void givenPeriodAndItsMistakes() {
    QTemporaryDir dir;
    const QString run = dir.filePath("air");
    const CliResult trained = run_cli(smallRun(kAirPassengers, run, {"--seasonal-period", "6"}));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    const QJsonObject period =
        readJson(run + "/metrics.json").value("test_comparison").toObject().value("seasonal_period").toObject();
    QCOMPARE(period.value("length").toInt(), 6);
    QCOMPARE(period.value("source").toString(), QStringLiteral("given"));

    const QString out = dir.filePath("f.csv");
    const CliResult kept = run_cli({"forecast", "--run", run, "--data", kAirPassengers, "--out", out, "--test-metrics"});
    QVERIFY2(kept.exited_with(0) && kept.out.contains("seasonal naive (6)"), qPrintable(kept.describe()));
    const CliResult changed = run_cli(
        {"forecast", "--run", run, "--data", kAirPassengers, "--out", out, "--test-metrics", "--seasonal-period", "3"});
    QVERIFY2(changed.exited_with(0) && changed.out.contains("seasonal naive (3)"), qPrintable(changed.describe()));
    const CliResult tooLong = run_cli(
        {"forecast", "--run", run, "--data", kAirPassengers, "--out", out, "--test-metrics", "--seasonal-period", "30"});
    QVERIFY2(tooLong.exited_with(0), qPrintable(tooLong.describe()));
    QVERIFY2(!tooLong.out.contains("seasonal naive (") && tooLong.out.contains("longer than the look-back"),
             qPrintable(tooLong.describe()));

    const CliResult zero = run_cli(
        {"forecast", "--run", run, "--data", kAirPassengers, "--out", out, "--test-metrics", "--seasonal-period", "0"});
    QVERIFY2(zero.exited_with(2) && zero.err.contains("--seasonal-period"), qPrintable(zero.describe()));
    const CliResult alone = run_cli({"forecast", "--run", run, "--data", kAirPassengers, "--out", out,
                                     "--seasonal-period", "6"});
    QVERIFY2(alone.exited_with(2) && alone.err.contains("--test-metrics"), qPrintable(alone.describe()));
  }

  void severalChannelsEachGetTheirRows() {
    QTemporaryDir dir;
    const QString run = dir.filePath("seatbelts");
    const CliResult trained = run_cli(smallRun(kSeatbelts, run));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    const QJsonObject comparison = readJson(run + "/metrics.json").value("test_comparison").toObject();
    const CliResult forecast = run_cli({"forecast", "--run", run, "--data", kSeatbelts, "--out",
                                        dir.filePath("f.csv"), "--test-metrics"});
    QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    const QStringList channels = {"DriversKilled", "drivers", "front", "rear", "kms", "PetrolPrice", "VanKilled", "law"};
    for (int c = 0; c < channels.size(); ++c) {
      const QMap<QString, QList<double>> block = tableBlock(forecast.out, channels[c]);
      QVERIFY2(block.size() == 3, qPrintable(channels[c] + "\n" + forecast.out));
      const QList<double> expected = storedRow(comparison.value("last_value").toObject(), c);
      for (int k = 0; k < 4; ++k) QVERIFY(close(block.value("last value")[k], expected[k]));
    }
    // kms (tens of thousands) and PetrolPrice (about 0.1) in their own units.
    QVERIFY(tableBlock(forecast.out, "kms").value("last value")[2] > 1e4);
    QVERIFY(tableBlock(forecast.out, "PetrolPrice").value("last value")[2] < 1e-2);
    QVERIFY(!tableBlock(forecast.out, "all channels").isEmpty());
  }

  void withoutDatesRowNumbersContinue() {
    QTemporaryDir dir;
    const QString data = dir.filePath("undated.csv");
    QFile file(data);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("value\n");
    for (int t = 0; t < 150; ++t) file.write(QByteArray::number(0.2 * t + 3 * std::sin(2 * M_PI * t / 8)) + "\n");
    file.close();
    const QString run = dir.filePath("run");
    const CliResult trained = run_cli(smallRun(data, run));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    const QJsonObject period =
        readJson(run + "/metrics.json").value("test_comparison").toObject().value("seasonal_period").toObject();
    QCOMPARE(period.value("length").toInt(), 8);
    QCOMPARE(period.value("source").toString(), QStringLiteral("autocorrelation"));
    const QString out = dir.filePath("f.csv");
    const CliResult forecast = run_cli({"forecast", "--run", run, "--data", data, "--last", "--out", out});
    QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    const QStringList rows = csvColumn(out, 0);
    QCOMPARE(rows.first(), QStringLiteral("151"));
    QCOMPARE(rows.last(), QStringLiteral("162"));
  }

  // A run from before the comparison: its metrics.json has no per-channel errors and no
  // test_comparison. It still lists, loads and forecasts, and --test-metrics computes the comparison.
  void runsWrittenBeforeStillForecast() {
    QTemporaryDir dir;
    const QString run = dir.filePath("old");
    const CliResult trained = run_cli(smallRun(kAirPassengers, run));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    QJsonObject metrics = readJson(run + "/metrics.json");
    metrics.remove("test_comparison");
    for (const char* part : {"validation", "test"}) {
      QJsonObject section = metrics.value(part).toObject();
      section.remove("channel_mse");
      section.remove("channel_mae");
      metrics.insert(part, section);
    }
    QVERIFY(writeJson(run + "/metrics.json", metrics));
    const CliResult forecast = run_cli({"forecast", "--run", run, "--data", kAirPassengers, "--out",
                                        dir.filePath("f.csv"), "--test-metrics"});
    QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    QCOMPARE(tableBlock(forecast.out, "AirPassengers").size(), 3);
  }
};

QTEST_GUILESS_MAIN(TestCliForecastMetrics)
#include "tst_cli_forecast_metrics.moc"
