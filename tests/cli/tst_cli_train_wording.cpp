// `aaren train` as a student meets it: --model both trains the two forecasters side by side into
// DIR/aaren and DIR/transformer, as the event and classification tasks do, and --model all the
// linear Transformer too, which a GPU does not run; a mistake on the command
// line points at the help of the command that was typed; a one-epoch run says "1 epoch"; a channel
// that never changes over the training rows is named in the summary; a file with a header and no
// rows is refused in the words the app uses.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "core/runs/run_catalog.hpp"
#include "core/forecast/forecast_run_folder.hpp"

namespace {

const QString kData = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_nottem.csv");

QStringList tinyRun(const QString& data, const QString& model, const QString& out) {
  return {"train",    "--data", data, "--model",  model, "--seq-len", "24", "--horizon", "6",  "--d-model",
          "16",       "--heads", "2", "--layers", "1",   "--d-ff",    "32", "--epochs",  "1",  "--threads",
          "1",        "--out",   out};
}

QString writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(bytes);
  return path;
}

bool hasRunFiles(const QString& dir) {
  for (const char* name : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
    if (!QFile::exists(QDir(dir).filePath(QLatin1String(name)))) return false;
  return true;
}

}  // namespace

class TestCliTrainWording : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY2(QFile::exists(AAREN_CLI_PATH), AAREN_CLI_PATH);
    QVERIFY(dir_.isValid());
  }

  void bothModelsTrainSideBySide() {
    const QString out = dir_.filePath("both");
    const CliResult r = run_cli(tinyRun(kData, "both", out));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(hasRunFiles(out + "/aaren") && hasRunFiles(out + "/transformer"), qPrintable(r.describe()));
    QVERIFY2(aaren::is_side_by_side_run(out.toStdString()), qPrintable(out));
    QVERIFY(aaren::load_forecast_run((out + "/aaren").toStdString()).config.model.kind == aaren::ModelKind::aaren);
    QVERIFY(aaren::load_forecast_run((out + "/transformer").toStdString()).config.model.kind == aaren::ModelKind::transformer);
    // The same data, split and seed: the two runs differ only in their mixer.
    const aaren::ForecastRunConfig first = aaren::load_forecast_run((out + "/aaren").toStdString()).config;
    const aaren::ForecastRunConfig second = aaren::load_forecast_run((out + "/transformer").toStdString()).config;
    QVERIFY(first.scaler.mean == second.scaler.mean);
    QCOMPARE(first.train.seed, second.train.seed);
    QVERIFY2(r.out.contains("training aaren on ") && r.out.contains("training transformer on "), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("run folders: %1 (aaren/, transformer/)").arg(out)), qPrintable(r.out));
    // And each reads as one model's run where a single model is asked for.
    const CliResult forecast = run_cli({"forecast", "--run", out, "--data", kData, "--out", dir_.filePath("f.csv")});
    QVERIFY2(forecast.exited_with(2) && forecast.err.contains("several models side by side"), qPrintable(forecast.describe()));
  }

  void allThreeModelsTrainSideBySide() {
    const QString out = dir_.filePath("all");
    const CliResult r = run_cli(tinyRun(kData, "all", out));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QStringLiteral("run folders: %1 (aaren/, transformer/, linear/)").arg(out)), qPrintable(r.out));
    QVERIFY2(hasRunFiles(out + "/linear"), qPrintable(r.describe()));
    const aaren::LoadedForecastRun linear = aaren::load_forecast_run((out + "/linear").toStdString());
    QVERIFY(linear.config.model.kind == aaren::ModelKind::linear);
    QCOMPARE(linear.config.scaler.mean, aaren::load_forecast_run((out + "/aaren").toStdString()).config.scaler.mean);
    const CliResult forecast = run_cli({"forecast", "--run", out + "/linear", "--data", kData, "--last", "--out",
                                        dir_.filePath("linear.csv")});
    QVERIFY2(forecast.exited_with(0) && forecast.out.contains("wrote 6 steps"), qPrintable(forecast.describe()));
    // Where the GPU is asked for by name, the linear Transformer is refused before anything is read.
    const CliResult cuda = run_cli(tinyRun(kData, "all", dir_.filePath("cuda")) << "--device" << "cuda");
    QVERIFY2(cuda.exited_with(2) && cuda.err.contains("--device cuda: the linear Transformer trains and streams on "
                                                      "the CPU only"),
             qPrintable(cuda.describe()));
    QVERIFY(!QFile::exists(dir_.filePath("cuda")));
  }

  void oneEpochIsSingular() {
    const CliResult r = run_cli(tinyRun(kData, "aaren", dir_.filePath("one")));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("trained 1 epoch; best epoch 1"), qPrintable(r.out));
    QVERIFY2(!r.out.contains("1 epochs"), qPrintable(r.out));
  }

  void usageErrorsPointAtTheCommandsHelp_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("help");
    QTest::newRow("train, unknown option") << QStringList{"train", "--frobnicate", "1"} << "aaren train --help";
    QTest::newRow("train, no --model") << QStringList{"train", "--data", kData, "--out", "x"} << "aaren train --help";
    QTest::newRow("train, unknown model") << QStringList{"train", "--data", kData, "--model", "lstm", "--out", "x"}
                                          << "aaren train --help";
    QTest::newRow("train events") << QStringList{"train", "--task", "events", "--frobnicate", "1"}
                                  << "aaren train --task events --help";
    QTest::newRow("forecast classify") << QStringList{"forecast", "--task=classify", "--frobnicate", "1"}
                                       << "aaren forecast --task classify --help";
    QTest::newRow("forecast") << QStringList{"forecast", "--window", "1", "--last"} << "aaren forecast --help";
    QTest::newRow("bench stream") << QStringList{"bench", "stream", "--frobnicate", "1"} << "aaren bench stream --help";
    QTest::newRow("unknown benchmark") << QStringList{"bench", "frobnicate"} << "aaren bench --help";
    QTest::newRow("params") << QStringList{"params", "--heads", "many"} << "aaren params --help";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "aaren --help";
  }

  void usageErrorsPointAtTheCommandsHelp() {
    QFETCH(QStringList, args);
    QFETCH(QString, help);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(2), qPrintable(r.describe()));
    QVERIFY2(r.err.endsWith(QStringLiteral("(see '%1')\n").arg(help)), qPrintable(r.describe()));
  }

  void unknownModelNamesBoth() {
    const CliResult r = run_cli({"train", "--data", kData, "--model", "lstm", "--out", "x"});
    QVERIFY2(r.err.contains("--model must be aaren, transformer, linear, both or all, got 'lstm'"), qPrintable(r.describe()));
  }

  void aConstantChannelIsNamed() {
    QByteArray csv("month,temperature,station\n");
    for (int row = 0; row < 200; ++row)
      csv += QByteArray::number(row) + ',' + QByteArray::number(10 + (row * 7) % 13) + ",42\n";
    const QString data = writeFile(dir_.filePath("constant.csv"), csv);
    const CliResult r = run_cli(tinyRun(data, "aaren", dir_.filePath("constant")));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("warning: channel 'station' is constant over the training rows (every value is 42): "
                            "the models learn nothing from it"),
             qPrintable(r.out));
    QVERIFY2(!r.out.contains("'temperature' is constant"), qPrintable(r.out));
  }

  void aHeaderWithoutRowsIsSaidAsTheAppSaysIt() {
    const QString data = writeFile(dir_.filePath("header.csv"), "date,value\n");
    const CliResult r = run_cli(tinyRun(data, "aaren", dir_.filePath("header")));
    QVERIFY2(r.exited_with(1), qPrintable(r.describe()));
    QVERIFY2(r.err.contains("header.csv: the file has a header but no data rows"), qPrintable(r.describe()));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestCliTrainWording)
#include "tst_cli_train_wording.moc"
