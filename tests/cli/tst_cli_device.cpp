// `aaren device` and `aaren bench attention --device ...` run as real processes. Where no CUDA
// device can be used (no CUDA at build time, no driver, no device), asking for one must end with
// exit code 1 and the reason `aaren device` gives; where one can, the GPU benchmark must report.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QProcess>
#include <QRegularExpression>

namespace aaren {

namespace {

// What `aaren device` says about CUDA: available, or unavailable and why.
struct CudaLine {
  bool found = false;
  bool available = false;
  QString detail;  // the device, or the reason it is unavailable
};

CudaLine cuda_line(const QString& out) {
  static const QRegularExpression line(QStringLiteral("^cuda: (available|unavailable), (.+)$"),
                                       QRegularExpression::MultilineOption);
  const QRegularExpressionMatch match = line.match(out);
  if (!match.hasMatch()) return {};
  return {true, match.captured(1) == QLatin1String("available"), match.captured(2).trimmed()};
}

}  // namespace

class TestCliDevice : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    const CliResult r = run_cli({QStringLiteral("device")});
    QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(r.describe()));
    cuda_ = cuda_line(r.out);
    QVERIFY2(cuda_.found, qPrintable(r.describe()));
    qInfo("aaren device: cuda %s, %s", cuda_.available ? "available" : "unavailable", qPrintable(cuda_.detail));
  }

  void device_lists_cpu_and_cuda() {
    const CliResult r = run_cli({QStringLiteral("device")});
    QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("^cpu: available, [1-9][0-9]* hardware threads$"),
                                               QRegularExpression::MultilineOption)),
             qPrintable(r.describe()));
    QVERIFY2(!cuda_.detail.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
  }

  // The CUDA versions, whatever the machine: the driver's (or why it was not asked) and the
  // runtime's with the driver it needs; the fix only when the driver is too old for the runtime.
  void device_prints_the_driver_and_runtime_versions() {
    const CliResult r = run_cli({QStringLiteral("device")});
    QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(r.describe()));
    static const QRegularExpression runtime(
        QStringLiteral("^cuda runtime: (([0-9]+)\\.[0-9]+ \\(needs a driver for CUDA ([0-9]+)\\.0 or newer\\)|"
                       "none \\(this build has no CUDA backend\\))$"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression driver(
        QStringLiteral("^cuda driver: (supports CUDA [0-9]+\\.[0-9]+|none found|"
                       "not asked \\(this build has no CUDA backend\\))$"),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch runtime_line = runtime.match(r.out);
    const QRegularExpressionMatch driver_line = driver.match(r.out);
    QVERIFY2(runtime_line.hasMatch() && driver_line.hasMatch(), qPrintable(r.describe()));
    const bool cuda_build = !runtime_line.captured(2).isEmpty();
    if (cuda_build) {
      QCOMPARE(runtime_line.captured(2), runtime_line.captured(3));  // minor-version compatibility
      QVERIFY2(!driver_line.captured(1).startsWith(QLatin1String("not asked")), qPrintable(r.out));
    } else {
      QVERIFY2(driver_line.captured(1).startsWith(QLatin1String("not asked")), qPrintable(r.out));
    }
    const bool too_old = cuda_.detail.startsWith(QLatin1String("the NVIDIA driver supports CUDA "));
    QCOMPARE(r.out.contains(QRegularExpression(QStringLiteral("^fix: install NVIDIA's forward-compatibility package "
                                                              "cuda-compat-[0-9]+-[0-9]+ "),
                                               QRegularExpression::MultilineOption)),
             too_old);
  }

  void device_takes_no_arguments() {
    const CliResult r = run_cli({QStringLiteral("device"), QStringLiteral("--all")});
    QVERIFY2(r.exited() && r.exit_code == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QStringLiteral("--all")), qPrintable(r.describe()));
  }

  void bench_attention_on_cuda() {
    const CliResult r =
        run_cli({QStringLiteral("bench"), QStringLiteral("attention"), QStringLiteral("--device"), QStringLiteral("cuda"),
                 QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--heads"), QStringLiteral("3"),
                 QStringLiteral("--tokens"), QStringLiteral("5000"), QStringLiteral("--repeats"), QStringLiteral("3")});
    QVERIFY2(r.exited(), qPrintable(r.describe()));
    if (cuda_.available) {
      QVERIFY2(r.exit_code == 0, qPrintable(r.describe()));
      QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("scan bandwidth / copy bandwidth: [0-9]+%"))),
               qPrintable(r.describe()));
    } else {
      QVERIFY2(r.exit_code == 1, qPrintable(r.describe()));
      QVERIFY2(r.err.contains(QStringLiteral("--device cuda: ") + cuda_.detail), qPrintable(r.describe()));
      QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    }
  }

  void bench_attention_auto_picks_what_is_there() {
    QStringList args{QStringLiteral("bench"), QStringLiteral("attention"), QStringLiteral("--device"),
                     QStringLiteral("auto"), QStringLiteral("--repeats"), QStringLiteral("1")};
    if (cuda_.available)
      args << QStringLiteral("--batch") << QStringLiteral("1") << QStringLiteral("--heads") << QStringLiteral("1")
           << QStringLiteral("--tokens") << QStringLiteral("1000");
    else
      args << QStringLiteral("--min-log2") << QStringLiteral("4") << QStringLiteral("--max-log2") << QStringLiteral("4");
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains(cuda_.available ? QStringLiteral("attention on CUDA") : QStringLiteral("seq ns/tok")),
             qPrintable(r.describe()));
  }

  void bench_attention_rejects_an_unknown_device() {
    const CliResult r = run_cli({QStringLiteral("bench"), QStringLiteral("attention"), QStringLiteral("--device"),
                                 QStringLiteral("tpu")});
    QVERIFY2(r.exited() && r.exit_code == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QStringLiteral("cpu, cuda or auto")) && r.err.contains(QStringLiteral("'tpu'")),
             qPrintable(r.describe()));
  }

  // Options of one device's benchmark are refused by the other's instead of being ignored.
  void bench_attention_refuses_the_other_devices_options() {
    const CliResult r = run_cli({QStringLiteral("bench"), QStringLiteral("attention"), QStringLiteral("--device"),
                                 QStringLiteral("cpu"), QStringLiteral("--tokens"), QStringLiteral("100")});
    QVERIFY2(r.exited() && r.exit_code == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QStringLiteral("--tokens is an option of the CUDA benchmark")), qPrintable(r.describe()));
    if (!cuda_.available) return;
    const CliResult gpu = run_cli({QStringLiteral("bench"), QStringLiteral("attention"), QStringLiteral("--device"),
                                   QStringLiteral("cuda"), QStringLiteral("--min-log2"), QStringLiteral("4")});
    QVERIFY2(gpu.exited() && gpu.exit_code == 2, qPrintable(gpu.describe()));
    QVERIFY2(gpu.err.contains(QStringLiteral("--min-log2 is an option of the CPU benchmark")), qPrintable(gpu.describe()));
  }

 private:
  CudaLine cuda_;
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestCliDevice)
#include "tst_cli_device.moc"
