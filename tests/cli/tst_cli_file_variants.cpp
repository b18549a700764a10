// `aaren train` and `aaren forecast` on the files people bring, run as a process: a European CSV
// (semicolons, decimal commas) trains and forecasts as written, as a series and as an event log; a file whose decimal mark cannot be
// told is refused with the option that settles it, and trains once it is given; the run remembers
// the mark, so forecasting reads the file as training did; an image is refused for what it is.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {

const QString kNottem = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_nottem.csv");

QStringList smallRun(const QString& data, const QString& out) {
  return {"train",   "--data",   data, "--model",  "aaren", "--seq-len", "24", "--horizon", "6",
          "--d-model", "16",     "--heads", "2", "--layers", "1",   "--d-ff",    "32", "--epochs",  "1",
          "--threads", "1",      "--out",   out};
}

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// nottem as Excel writes it in a German setting: semicolons between fields, commas in numbers.
QByteArray nottemInGerman() {
  QFile file(kNottem);
  if (!file.open(QIODevice::ReadOnly)) return {};
  QByteArray text = file.readAll();
  text.replace(',', ';');
  text.replace('.', ',');
  return text;
}

// 240 values that all read "d,ddd": 1.25 with a decimal comma, 1250 with a thousands comma.
QByteArray thousandsLikeSeries() {
  QByteArray text = "month;value\n";
  for (int i = 0; i < 240; ++i)
    text += QByteArray::number(2001 + i / 12) + "-" + QByteArray::number(1 + i % 12).rightJustified(2, '0') + ";" +
            QByteArray::number(1 + (i * 7) % 9) + "," + QByteArray::number(100 + (i * 37) % 900) + "\n";
  return text;
}

QString decimalMarkOf(const QString& run) {
  QFile file(run + "/config.json");
  if (!file.open(QIODevice::ReadOnly)) return QStringLiteral("(no config.json)");
  return QJsonDocument::fromJson(file.readAll()).object().value("data").toObject().value("decimal_mark").toString();
}

}  // namespace

class TestCliFileVariants : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH); }

  void europeanCsvTrainsAndForecasts() {
    QTemporaryDir dir;
    const QString data = dir.filePath("nottem_de.csv");
    QVERIFY(writeFile(data, nottemInGerman()));
    const QString run = dir.filePath("run");
    const CliResult trained = run_cli(smallRun(data, run));
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    QCOMPARE(decimalMarkOf(run), QStringLiteral(","));

    const QString out = dir.filePath("forecast.csv");
    const CliResult forecast = run_cli({"forecast", "--run", run, "--data", data, "--window", "0", "--out", out});
    QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    QFile csv(out);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().split('\n');
    QVERIFY2(lines.size() > 6, "six forecast rows and a header");
    // The truth beside the forecast is nottem's own value, read from the decimal commas: the first
    // test window's targets are temperatures between 30 and 70 degrees Fahrenheit.
    const QList<QByteArray> first = lines.at(1).split(',');
    QVERIFY2(first.size() >= 5, lines.at(1).constData());
    const double truth = first.at(4).toDouble();
    QVERIFY2(truth > 30 && truth < 70, lines.at(1).constData());
  }

  void ambiguousMarkNamesTheOptionAndTrainsOnceGiven() {
    QTemporaryDir dir;
    const QString data = dir.filePath("amounts.csv");
    QVERIFY(writeFile(data, thousandsLikeSeries()));
    const CliResult refused = run_cli(smallRun(data, dir.filePath("refused")));
    QVERIFY2(refused.exited_with(1), qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("amounts.csv: the decimal mark cannot be told from the numbers: line 2 has '") &&
                 refused.err.contains("say which decimal mark the file uses (--decimal-mark . or --decimal-mark ,)"),
             qPrintable(refused.err));
    QVERIFY2(!QFile::exists(dir.filePath("refused/config.json")), "nothing is written for a refused file");

    for (const QString& mark : {QStringLiteral(","), QStringLiteral(".")}) {
      const QString run = dir.filePath("run" + mark);
      const CliResult trained = run_cli(smallRun(data, run) << "--decimal-mark" << mark);
      QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
      QCOMPARE(decimalMarkOf(run), mark);
      // Forecasting reads the file with the run's mark, not a new guess (which would refuse it).
      const CliResult forecast =
          run_cli({"forecast", "--run", run, "--data", data, "--last", "--out", dir.filePath("f" + mark + ".csv")});
      QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    }
  }

  // An event log with decimal commas: the event run records the mark and its forecast reads the
  // log the same way (the times are coal-mining disasters in decimal years, 1851-1962).
  void europeanEventLogTrainsAndForecasts() {
    QTemporaryDir dir;
    QFile coal(QStringLiteral(AAREN_SOURCE_DIR "/datasets/coal_mining_disasters.csv"));
    QVERIFY(coal.open(QIODevice::ReadOnly));
    QByteArray text = coal.readAll();
    text.replace(',', ';').replace('.', ',');
    const QString data = dir.filePath("coal_de.csv");
    QVERIFY(writeFile(data, text));
    const QString run = dir.filePath("run");
    const CliResult trained = run_cli({"train", "--task", "events", "--data", data, "--out", run, "--window", "16",
                                       "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32",
                                       "--epochs", "1", "--threads", "1"});
    QVERIFY2(trained.exited_with(0), qPrintable(trained.describe()));
    QCOMPARE(decimalMarkOf(run), QStringLiteral(","));
    const QString out = dir.filePath("next.csv");
    const CliResult forecast = run_cli({"forecast", "--task", "events", "--run", run, "--data", data, "--out", out});
    QVERIFY2(forecast.exited_with(0), qPrintable(forecast.describe()));
    QFile next(out);
    QVERIFY(next.open(QIODevice::ReadOnly));
    const QList<QByteArray> first = next.readAll().split('\n').value(1).split(',');
    const double time = first.value(2).toDouble();
    QVERIFY2(time > 1851 && time < 1963, first.join(',').constData());
  }

  void badOptionAndBinaryFileAreRefused() {
    QTemporaryDir dir;
    const CliResult usage = run_cli(smallRun(kNottem, dir.filePath("x")) << "--decimal-mark" << ";");
    QVERIFY2(usage.exited_with(2), qPrintable(usage.describe()));
    QVERIFY2(usage.err.contains("--decimal-mark must be . or , (got ';')"), qPrintable(usage.err));

    const QString image = dir.filePath("chart.csv");
    QVERIFY(writeFile(image, QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)));
    const CliResult refused = run_cli(smallRun(image, dir.filePath("y")));
    QVERIFY2(refused.exited_with(1), qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("chart.csv is not a text file (it starts like a PNG image)"), qPrintable(refused.err));
  }
};

QTEST_GUILESS_MAIN(TestCliFileVariants)
#include "tst_cli_file_variants.moc"
