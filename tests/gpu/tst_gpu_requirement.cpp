// When a GPU suite runs, skips or fails (tests/support/gpu_requirement.hpp), and the driver check
// behind `aaren device` (gpu/device_info.hpp), decided from given versions and device reports, so
// every branch is checked on any machine. Then a GPU suite run as a process: with
// AAREN_REQUIRE_CUDA=1 and no usable device it fails naming the reason; without it, it skips.
#include <QtTest>

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>

#include "gpu/device_info.hpp"
#include "support/gpu_requirement.hpp"

namespace aaren {

namespace {

gpu::DeviceInfo unavailable(const std::string& reason) {
  gpu::DeviceInfo info;
  info.reason = reason;
  return info;
}

struct SuiteRun {
  int exit_code = -1;
  QString out;
};

// A GPU suite, limited to one cheap test function (initTestCase always runs first).
SuiteRun run_gpu_suite(const QString& require_cuda) {
  const QString suite = QCoreApplication::applicationDirPath() + QStringLiteral("/tst_gpu_attention");
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.remove(QStringLiteral("AAREN_REQUIRE_CUDA"));
  if (!require_cuda.isNull()) environment.insert(QStringLiteral("AAREN_REQUIRE_CUDA"), require_cuda);
  process.setProcessEnvironment(environment);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(suite, {QStringLiteral("rejects_sizes_it_cannot_take")});
  if (!process.waitForFinished(-1) || process.exitStatus() != QProcess::NormalExit) return {};
  return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

}  // namespace

class TestGpuRequirement : public QObject {
  Q_OBJECT

 private slots:
  void the_requirement_is_read_from_the_variable() {
    QVERIFY(!cuda_required(nullptr));
    QVERIFY(!cuda_required(""));
    QVERIFY(!cuda_required("0"));
    QVERIFY(cuda_required("1"));
    QVERIFY(cuda_required("yes"));  // a misspelt "1" still requires: the check cannot be turned off by a typo
  }

  void a_usable_device_runs_the_suite_either_way() {
    gpu::DeviceInfo info;
    info.available = true;
    for (bool required : {false, true}) {
      const GpuSuiteDecision decision = decide_gpu_suite(info, required);
      QCOMPARE(int(decision.verdict), int(GpuSuiteVerdict::run));
      QVERIFY(decision.reason.empty());
    }
  }

  void without_a_device_the_suite_skips_or_fails_with_the_reason_data() {
    QTest::addColumn<QString>("reason");
    QTest::newRow("no CUDA build")
        << "this build has no CUDA backend (no CUDA compiler was found when it was configured)";
    QTest::newRow("driver too old") << QString::fromStdString(gpu::old_driver_reason(12040, 13000));
    QTest::newRow("no driver") << "no NVIDIA driver is installed";
    QTest::newRow("no device") << "no CUDA device was found";
  }
  void without_a_device_the_suite_skips_or_fails_with_the_reason() {
    QFETCH(QString, reason);
    const gpu::DeviceInfo info = unavailable(reason.toStdString());
    const GpuSuiteDecision skip = decide_gpu_suite(info, false);
    QCOMPARE(int(skip.verdict), int(GpuSuiteVerdict::skip));
    QCOMPARE(QString::fromStdString(skip.reason), "no CUDA device can be used: " + reason);
    const GpuSuiteDecision fail = decide_gpu_suite(info, true);
    QCOMPARE(int(fail.verdict), int(GpuSuiteVerdict::fail));
    QCOMPARE(QString::fromStdString(fail.reason), "AAREN_REQUIRE_CUDA=1, but no CUDA device can be used: " + reason);
  }

  // CUDA's minor-version compatibility: the driver must support the runtime's major version.
  void a_driver_is_too_old_below_the_runtimes_major_version_data() {
    QTest::addColumn<int>("driver");
    QTest::addColumn<int>("runtime");
    QTest::addColumn<bool>("too_old");
    QTest::newRow("12.4 driver, 13.0 runtime") << 12040 << 13000 << true;
    QTest::newRow("12.9 driver, 13.1 runtime") << 12090 << 13010 << true;
    QTest::newRow("13.0 driver, 13.0 runtime") << 13000 << 13000 << false;
    QTest::newRow("13.0 driver, 13.2 runtime") << 13000 << 13020 << false;
    QTest::newRow("13.1 driver, 12.4 runtime") << 13010 << 12040 << false;
    QTest::newRow("no driver") << 0 << 13000 << false;
    QTest::newRow("no runtime") << 12040 << 0 << false;
  }
  void a_driver_is_too_old_below_the_runtimes_major_version() {
    QFETCH(int, driver);
    QFETCH(int, runtime);
    QFETCH(bool, too_old);
    QCOMPARE(gpu::driver_is_too_old(driver, runtime), too_old);
  }

  void an_old_driver_is_named_with_both_versions_and_the_fix() {
    QCOMPARE(QString::fromStdString(gpu::old_driver_reason(12040, 13000)),
             QStringLiteral("the NVIDIA driver supports CUDA 12.4, but this build's CUDA runtime 13.0 needs a driver "
                            "for CUDA 13.0 or newer"));
    const QString fix = QString::fromStdString(gpu::driver_fix(12040, 13010));
    QVERIFY2(fix.contains("cuda-compat-13-1") && fix.contains("/usr/local/cuda-13.1/compat"), qPrintable(fix));
    QVERIFY2(fix.contains("toolkit that matches the driver (CUDA 12.4 or older)"), qPrintable(fix));
    QCOMPARE(QString::fromStdString(gpu::cuda_version_text(12080)), QStringLiteral("12.8"));
  }

  // What this machine reports is consistent with the rules above.
  void this_machines_report_follows_the_rules() {
    const gpu::DeviceInfo info = gpu::query_device();
    QCOMPARE(info.available, info.reason.empty());
    QCOMPARE(info.driver_too_old, gpu::driver_is_too_old(info.driver_version, info.runtime_version));
    if (info.driver_too_old)
      QCOMPARE(info.reason, gpu::old_driver_reason(info.driver_version, info.runtime_version));
    QCOMPARE(gpu::built_with_cuda(), info.runtime_version > 0);
    if (!info.available) QCOMPARE(gpu::free_device_memory(), std::size_t(0));
  }

  void a_gpu_suite_fails_where_a_device_is_required_and_skips_otherwise() {
    QVERIFY2(QFileInfo::exists(QCoreApplication::applicationDirPath() + "/tst_gpu_attention"),
             "tst_gpu_attention is not built beside this suite");
    const gpu::DeviceInfo info = gpu::query_device();
    const SuiteRun optional = run_gpu_suite(QString());
    const SuiteRun required = run_gpu_suite(QStringLiteral("1"));
    if (info.available) {
      QVERIFY2(optional.exit_code == 0 && !optional.out.contains("SKIP"), qPrintable(optional.out));
      QVERIFY2(required.exit_code == 0 && !required.out.contains("SKIP"), qPrintable(required.out));
      return;
    }
    QVERIFY2(optional.exit_code == 0, qPrintable(optional.out));
    QVERIFY2(optional.out.contains("SKIP   : aaren::TestGpuAttention::initTestCase() no CUDA device can be used: " +
                                   QString::fromStdString(info.reason)),
             qPrintable(optional.out));
    QVERIFY2(required.exit_code != 0, qPrintable(required.out));
    QVERIFY2(required.out.contains("FAIL!  : aaren::TestGpuAttention::initTestCase() AAREN_REQUIRE_CUDA=1, but no "
                                   "CUDA device can be used: " +
                                   QString::fromStdString(info.reason)),
             qPrintable(required.out));
    QVERIFY2(!required.out.contains("SKIP"), qPrintable(required.out));
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestGpuRequirement)
#include "tst_gpu_requirement.moc"
