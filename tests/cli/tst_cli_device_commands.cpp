// --device on `aaren train`, `aaren forecast`, `aaren bench train` and `aaren bench stream`, run as
// real processes. What is expected follows what `aaren device` says: where no CUDA device can be
// used, --device cuda ends with exit code 1 and that reason before anything is written; where one
// can, the GPU trains, forecasts and measures, and agrees with the CPU up to float rounding.
// --device auto always works; an unknown device is a usage error; event models train on the CPU.
#include <QtTest>

#include "cli/cli_process.hpp"
#include "core/train/cpu_only_models.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <cmath>

#include "core/forecast/forecast_run_folder.hpp"
#include "support/gpu_requirement.hpp"

namespace {

const QString kData = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_nottem.csv");
const QString kEvents = QStringLiteral(AAREN_SOURCE_DIR "/datasets/coal_mining_disasters.csv");

QStringList small_run(const QString& out, const QString& device) {
  return {"train",    "--data",  kData, "--model",  "aaren", "--seq-len", "24", "--horizon", "6",
          "--d-model", "16",     "--heads", "2", "--layers", "1",  "--d-ff",    "32", "--epochs",  "2",
          "--threads", "1",      "--device", device, "--out", out};
}

QStringList tiny_bench_model() {
  return {"--d-model", "8", "--heads", "2", "--layers", "1", "--d-ff", "16"};
}

// "test MSE 0.1234 MAE 0.5678": the two numbers, or an empty list.
QList<double> test_metrics(const QString& out) {
  static const QRegularExpression line(QStringLiteral("^test MSE ([0-9.]+) MAE ([0-9.]+) "),
                                       QRegularExpression::MultilineOption);
  const QRegularExpressionMatch match = line.match(out);
  if (!match.hasMatch()) return {};
  return {match.captured(1).toDouble(), match.captured(2).toDouble()};
}

// The forecast column of a forecast CSV.
QList<double> forecast_column(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  QList<double> values;
  const QList<QByteArray> lines = file.readAll().split('\n');
  for (qsizetype i = 1; i < lines.size(); ++i)
    if (!lines[i].isEmpty()) values << lines[i].split(',').value(3).toDouble();
  return values;
}

}  // namespace

class TestCliDeviceCommands : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const CliResult device = run_cli({"device"});
    QVERIFY2(device.exited_with(0), qPrintable(device.describe()));
    static const QRegularExpression line(QStringLiteral("^cuda: (available|unavailable), (.+)$"),
                                         QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = line.match(device.out);
    QVERIFY2(match.hasMatch(), qPrintable(device.describe()));
    cuda_available_ = match.captured(1) == QLatin1String("available");
    cuda_detail_ = match.captured(2).trimmed();
    qInfo("aaren device: cuda %s, %s", cuda_available_ ? "available" : "unavailable", qPrintable(cuda_detail_));

    cpu_run_ = dir_.filePath("cpu-run");
    const CliResult train = run_cli(small_run(cpu_run_, "cpu"));
    QVERIFY2(train.exited_with(0), qPrintable(train.describe()));
    QVERIFY2(train.out.contains(QRegularExpression(QStringLiteral("^device: cpu, [1-9][0-9]* hardware threads$"),
                                                   QRegularExpression::MultilineOption)),
             qPrintable(train.describe()));
    QVERIFY2(train.out.contains("(trained on cpu)"), qPrintable(train.describe()));
  }

  // Where no GPU can be used: exit code 1 and the reason, nothing written.
  void refuses_cuda_with_the_reason_or_uses_it_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("written");  // what a run writes, relative to the test's folder
    QTest::newRow("train") << small_run("{dir}/cuda-run", "cuda") << QStringLiteral("cuda-run");
    QTest::newRow("forecast") << QStringList{"forecast", "--run", "{cpu-run}", "--data", kData, "--window", "0",
                                             "--out",    "{dir}/cuda-forecast.csv", "--device", "cuda"}
                              << QStringLiteral("cuda-forecast.csv");
    QTest::newRow("bench train") << QStringList{"bench", "train", "--device", "cuda", "--seq-lens", "8,16", "--batch",
                                                "2",     "--steps", "1",   "--repeats", "1", "--horizon", "4",
                                                "--channels", "1"} + tiny_bench_model()
                                 << QString();
    QTest::newRow("bench stream") << QStringList{"bench", "stream", "--device", "cuda", "--tokens", "64", "--repeat",
                                                 "1",     "--samples", "4", "--out", "{dir}/cuda-stream.csv"} +
                                         tiny_bench_model()
                                  << QStringLiteral("cuda-stream.csv");
  }
  void refuses_cuda_with_the_reason_or_uses_it() {
    QFETCH(QStringList, args);
    QFETCH(QString, written);
    args.replaceInStrings("{dir}", dir_.path()).replaceInStrings("{cpu-run}", cpu_run_);
    const CliResult r = run_cli(args);
    if (!cuda_available_) {
      QVERIFY2(r.exited_with(1), qPrintable(r.describe()));
      QVERIFY2(r.err.contains(QStringLiteral("--device cuda: ") + cuda_detail_), qPrintable(r.describe()));
      QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
      if (!written.isEmpty()) QVERIFY2(!QFileInfo::exists(dir_.filePath(written)), qPrintable(written));
      return;
    }
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    if (!written.isEmpty()) QVERIFY2(QFileInfo::exists(dir_.filePath(written)), qPrintable(written));
  }

  // The forecast and the test metrics of a run: the same on either device, up to float rounding;
  // on the CPU the test metrics are the ones training wrote to metrics.json.
  void forecast_agrees_across_devices() {
    const QString cpu_csv = dir_.filePath("cpu-forecast.csv");
    const CliResult cpu = run_cli({"forecast", "--run", cpu_run_, "--data", kData, "--window", "3", "--out", cpu_csv,
                                   "--test-metrics", "--device", "cpu"});
    QVERIFY2(cpu.exited_with(0), qPrintable(cpu.describe()));
    const QList<double> cpu_metrics = test_metrics(cpu.out);
    QCOMPARE(cpu_metrics.size(), 2);
    const aaren::LoadedForecastRun run = aaren::load_forecast_run(cpu_run_.toStdString());
    QCOMPARE(QString::number(cpu_metrics[0], 'f', 4), QString::number(run.metrics.test.mse, 'f', 4));
    QCOMPARE(QString::number(cpu_metrics[1], 'f', 4), QString::number(run.metrics.test.mae, 'f', 4));
    const QList<double> cpu_values = forecast_column(cpu_csv);
    QCOMPARE(cpu_values.size(), 6);
    if (!cuda_available_ && cuda_required(qgetenv("AAREN_REQUIRE_CUDA").constData()))
      QFAIL(qPrintable("AAREN_REQUIRE_CUDA=1, but no CUDA device can be used: " + cuda_detail_));
    if (!cuda_available_) QSKIP("no CUDA device: the GPU's forecast is compared where there is one");

    const QString gpu_csv = dir_.filePath("gpu-forecast.csv");
    const CliResult gpu = run_cli({"forecast", "--run", cpu_run_, "--data", kData, "--window", "3", "--out", gpu_csv,
                                   "--test-metrics", "--device", "cuda"});
    QVERIFY2(gpu.exited_with(0), qPrintable(gpu.describe()));
    const QList<double> gpu_metrics = test_metrics(gpu.out);
    QCOMPARE(gpu_metrics.size(), 2);
    for (int i = 0; i < 2; ++i) QVERIFY2(std::abs(gpu_metrics[i] - cpu_metrics[i]) <= 2e-4, qPrintable(gpu.out));
    const QList<double> gpu_values = forecast_column(gpu_csv);
    QCOMPARE(gpu_values.size(), cpu_values.size());
    for (qsizetype i = 0; i < cpu_values.size(); ++i)
      QVERIFY2(std::abs(gpu_values[i] - cpu_values[i]) <= 1e-3 * (1 + std::abs(cpu_values[i])),
               qPrintable(QStringLiteral("step %1: %2 on the GPU, %3 on the CPU")
                              .arg(i)
                              .arg(gpu_values[i])
                              .arg(cpu_values[i])));
  }

  void auto_trains_where_it_can() {
    const QString dir = dir_.filePath("auto-run");
    const CliResult r = run_cli(small_run(dir, "auto"));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(cuda_available_ ? QStringLiteral("(trained on cuda") : QStringLiteral("(trained on cpu)")),
             qPrintable(r.describe()));
    const aaren::LoadedForecastRun run = aaren::load_forecast_run(dir.toStdString());
    QCOMPARE(run.config.model.d_model, 16);
    QVERIFY(run.has_metrics && run.metrics.best_epoch >= 1);
    QCOMPARE(QString::fromStdString(run.metrics.device).startsWith(QStringLiteral("cuda: ")), cuda_available_);
    if (!cuda_available_) QCOMPARE(run.metrics.device, std::string("cpu"));
  }

  void bench_train_names_the_device() {
    const CliResult r = run_cli(QStringList{"bench", "train", "--device", "cpu", "--seq-lens", "8,16", "--batch", "2",
                                            "--steps", "1", "--repeats", "1", "--horizon", "4", "--channels", "1",
                                            "--threads", "1"} +
                                tiny_bench_model());
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("^device: cpu, "), QRegularExpression::MultilineOption)),
             qPrintable(r.describe()));
    static const QRegularExpression row(QStringLiteral("^ +(8|16) (aaren|transformer) +cpu +[0-9.]+ "),
                                        QRegularExpression::MultilineOption);
    QCOMPARE(r.out.count(row), 4);
  }

  // The GPU model does not run the linear Transformer: alone, "auto" times it on the CPU and "cuda" is
  // refused with that reason (where a GPU exists; where none does, with the device's reason).
  void a_cpu_only_model_alone_is_timed_on_the_cpu_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("bench train") << QStringList{"bench", "train", "--model", "linear", "--seq-lens", "8", "--batch", "2",
                                                "--steps", "1", "--repeats", "1", "--horizon", "4", "--channels", "1"} +
                                        tiny_bench_model();
    QTest::newRow("bench stream") << QStringList{"bench", "stream", "--model", "linear", "--tokens", "32", "--repeat",
                                                 "1", "--samples", "4", "--no-parallel", "--out",
                                                 "{dir}/linear-stream.csv"} +
                                         tiny_bench_model();
  }
  void a_cpu_only_model_alone_is_timed_on_the_cpu() {
    QFETCH(QStringList, args);
    args.replaceInStrings("{dir}", dir_.path());
    const CliResult automatic = run_cli(args + QStringList{"--device", "auto"});
    QVERIFY2(automatic.exited_with(0), qPrintable(automatic.describe()));
    QVERIFY2(automatic.out.contains(QRegularExpression(QStringLiteral("^device: cpu, "), QRegularExpression::MultilineOption)),
             qPrintable(automatic.describe()));
    QVERIFY2(automatic.out.contains(QStringLiteral("linear")), qPrintable(automatic.describe()));
    const CliResult cuda = run_cli(args + QStringList{"--device", "cuda"});
    if (cuda_available_) {
      QVERIFY2(cuda.exited_with(2), qPrintable(cuda.describe()));
      QVERIFY2(cuda.err.contains(QString::fromStdString(aaren::cpu_only_reason(aaren::ModelKind::linear))),
               qPrintable(cuda.describe()));
    } else {
      QVERIFY2(cuda.exited_with(1), qPrintable(cuda.describe()));
      QVERIFY2(cuda.err.contains(QStringLiteral("--device cuda: ") + cuda_detail_), qPrintable(cuda.describe()));
    }
  }

  void an_unknown_device_is_a_usage_error_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("train") << small_run("{dir}/never", "tpu");
    QTest::newRow("train events") << QStringList{"train", "--task", "events", "--data", kEvents, "--out", "{dir}/never",
                                                 "--device", "tpu"};
    QTest::newRow("forecast") << QStringList{"forecast", "--run", "{cpu-run}", "--data", kData, "--out",
                                             "{dir}/never.csv", "--device", "tpu"};
    QTest::newRow("bench train") << QStringList{"bench", "train", "--device", "tpu"};
    QTest::newRow("bench stream") << QStringList{"bench", "stream", "--tokens", "64", "--out", "{dir}/never.csv",
                                                 "--device", "tpu"};
  }
  void an_unknown_device_is_a_usage_error() {
    QFETCH(QStringList, args);
    args.replaceInStrings("{dir}", dir_.path()).replaceInStrings("{cpu-run}", cpu_run_);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(2), qPrintable(r.describe()));
    QVERIFY2(r.err.contains("--device must be cpu, cuda or auto, got 'tpu'"), qPrintable(r.describe()));
    QVERIFY(!QFileInfo::exists(dir_.filePath("never")) && !QFileInfo::exists(dir_.filePath("never.csv")));
  }

  void event_models_train_on_the_cpu() {
    const QStringList tiny{"--d-model", "8", "--heads", "2",      "--layers", "1", "--d-ff",   "16", "--mixture", "2",
                           "--time-frequencies", "2", "--window", "16", "--epochs", "1", "--batch", "4"};
    const QString refused = dir_.filePath("events-cuda");
    const CliResult cuda = run_cli(QStringList{"train", "--task", "events", "--data", kEvents, "--out", refused,
                                               "--device", "cuda"} +
                                   tiny);
    QVERIFY2(cuda.exited_with(2), qPrintable(cuda.describe()));
    QVERIFY2(cuda.err.contains("--device cuda: event models train on the CPU only"), qPrintable(cuda.describe()));
    QVERIFY(!QFileInfo::exists(refused));

    const QString dir = dir_.filePath("events-auto");
    const CliResult automatic = run_cli(QStringList{"train", "--task", "events", "--data", kEvents, "--out", dir,
                                                    "--device", "auto"} +
                                        tiny);
    QVERIFY2(automatic.exited_with(0), qPrintable(automatic.describe()));
    QVERIFY(QFileInfo::exists(dir + "/model.safetensors"));
  }

  void help_describes_device_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("train") << QStringList{"train", "--help"};
    QTest::newRow("train events") << QStringList{"train", "--task", "events", "--help"};
    QTest::newRow("forecast") << QStringList{"forecast", "--help"};
    QTest::newRow("bench train") << QStringList{"bench", "train", "--help"};
    QTest::newRow("bench stream") << QStringList{"bench", "stream", "--help"};
  }
  void help_describes_device() {
    QFETCH(QStringList, args);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("--device cpu|cuda|auto"), qPrintable(r.describe()));
  }

 private:
  QTemporaryDir dir_;
  bool cuda_available_ = false;
  QString cuda_detail_;
  QString cpu_run_;
};

QTEST_GUILESS_MAIN(TestCliDeviceCommands)
#include "tst_cli_device_commands.moc"
