// The memory a training run needs, estimated before anything is allocated: one worker's estimate
// matches what its buffers really take, the whole estimate matches the peak a real run reaches,
// and a run that cannot fit is refused up front with both numbers and what to change.
#include <QtTest>

#include <malloc.h>

#include <QTemporaryDir>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/model/forecast_model.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/train/memory_estimate.hpp"
#include "core/util/available_memory.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

// AddressSanitizer serves every allocation from its own heap, with guard zones around each block,
// so neither malloc's count of bytes in use nor the resident size measures the buffers there.
constexpr bool kSanitizedHeap = AAREN_SANITIZED_RUNTIME;
constexpr const char* kSanitizedHeapSkip = "AddressSanitizer's heap hides what the buffers take";

std::size_t bytes_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// kB fields of /proc/self/status, in bytes; 0 when absent.
std::size_t status_bytes(const std::string& key) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(key + ":")) return std::stoull(line.substr(key.size() + 1)) * 1024;
  return 0;
}

// Makes the peak resident size (VmHWM) start again from the current one; false where the
// system does not offer it.
bool reset_peak_resident() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return bool(clear);
}

ModelConfig model(ModelKind kind, int d_model, int layers, int d_ff, int seq_len, int horizon, int channels) {
  ModelConfig m;
  m.kind = kind;
  m.d_model = d_model;
  m.heads = 4;
  m.layers = layers;
  m.d_ff = d_ff;
  m.seq_len = seq_len;
  m.horizon = horizon;
  m.channels = channels;
  return m;
}

std::string write_series(const QTemporaryDir& dir, int rows) {
  const std::string path = dir.filePath("series.csv").toStdString();
  std::ofstream out(path);
  out << "step,value\n";
  for (int i = 0; i < rows; ++i) out << i << ',' << (i * 37 % 101) << '\n';
  return path;
}

}  // namespace

class TestMemoryEstimate : public QObject {
  Q_OBJECT

 private slots:
  void oneWorkerEstimateMatchesItsBuffers_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("seq_len");
    QTest::newRow("aaren, 1 layer") << int(ModelKind::aaren) << 1 << 96;
    QTest::newRow("aaren, 3 layers") << int(ModelKind::aaren) << 3 << 200;
    QTest::newRow("transformer, 1 layer") << int(ModelKind::transformer) << 1 << 96;
    QTest::newRow("transformer, 2 layers") << int(ModelKind::transformer) << 2 << 300;
    QTest::newRow("linear, 1 layer") << int(ModelKind::linear) << 1 << 96;
    QTest::newRow("linear, 2 layers, shorter than a chunk") << int(ModelKind::linear) << 2 << 40;
  }
  // The buffers a trainer's worker allocates (as forecast_task.cpp's worker holds them), measured
  // by the allocator's count of bytes in use; within 2%, which is less than any one of its
  // sequence-long buffers, so a buffer left out of the estimate shows.
  void oneWorkerEstimateMatchesItsBuffers() {
    if (kSanitizedHeap) QSKIP(kSanitizedHeapSkip);
    QFETCH(int, kind);
    QFETCH(int, layers);
    QFETCH(int, seq_len);
    const ModelConfig m = model(ModelKind(kind), 64, layers, 256, seq_len, 24, 3);
    const std::size_t before = bytes_in_use();
    {
      const auto state = std::make_unique<ForwardState<float>>(m);
      const auto scratch = std::make_unique<BackwardScratch<float>>(m);
      const AlignedVector<float> x(std::size_t(m.seq_len * m.channels)), truth(std::size_t(m.horizon * m.channels)),
          dy(truth.size());
      const double measured = double(bytes_in_use() - before);
      const double estimated = double(training_worker_bytes(m));
      QVERIFY2(std::abs(measured - estimated) <= 0.02 * estimated,
               qPrintable(QString("measured %1 bytes, estimated %2").arg(measured).arg(estimated)));
    }
  }

  void transformerActivationsGrowWithTheSquareOfTheLookBack() {
    const auto ratio = [](ModelKind kind) {
      return double(training_worker_bytes(model(kind, 64, 2, 256, 2048, 24, 1))) /
             double(training_worker_bytes(model(kind, 64, 2, 256, 1024, 24, 1)));
    };
    QVERIFY2(ratio(ModelKind::transformer) > 3.0, qPrintable(QString::number(ratio(ModelKind::transformer))));
    QVERIFY2(ratio(ModelKind::aaren) < 2.05, qPrintable(QString::number(ratio(ModelKind::aaren))));

    const TrainingMemoryEstimate two = estimate_training_memory(model(ModelKind::aaren, 64, 2, 256, 96, 24, 1), 2);
    const TrainingMemoryEstimate four = estimate_training_memory(model(ModelKind::aaren, 64, 2, 256, 96, 24, 1), 4);
    QCOMPARE(two.workers, 4);
    QCOMPARE(four.workers, 8);
    QCOMPARE(four.parameter_bytes, two.parameter_bytes);
    QCOMPARE(two.parameter_bytes, 15 * two.parameters * sizeof(float));
  }

  // A real run's peak resident memory grows by about what was estimated (the data set here is a
  // few kilobytes, so the trainer's buffers are nearly all of it).
  void estimateMatchesARealRunsPeak() {
    if (kSanitizedHeap) QSKIP(kSanitizedHeapSkip);
    if (!reset_peak_resident()) QSKIP("this system cannot reset the peak resident size (/proc/self/clear_refs)");
    QTemporaryDir dir;
    ForecastRunRequest request;
    request.data_path = std::string(AAREN_SOURCE_DIR) + "/datasets/R_nottem.csv";
    request.model = model(ModelKind::aaren, 192, 2, 768, 48, 12, 1);
    request.data.seq_len = 48;
    request.data.horizon = 12;
    request.train.epochs = 1;
    request.train.max_steps_per_epoch = 2;
    request.train.threads = 2;
    request.out_dir = dir.filePath("run").toStdString();
    TrainingMemoryCheck checked;
    request.on_memory_checked = [&](const TrainingMemoryCheck& check) { checked = check; };

    const std::size_t resident_before = status_bytes("VmRSS");
    QVERIFY(reset_peak_resident());
    train_forecast_run(request);
    const double growth = double(status_bytes("VmHWM")) - double(resident_before);
    const double estimated = double(checked.estimate.total_bytes());
    QVERIFY(estimated > 30e6);
    QVERIFY2(growth > 0.8 * estimated && growth < 1.2 * estimated,
             qPrintable(QString("peak grew by %1 MB, estimated %2 MB").arg(growth / 1e6).arg(estimated / 1e6)));
  }

  void runThatCannotFitIsRefusedBeforeAnythingIsWritten() {
    QTemporaryDir dir;
    ForecastRunRequest request;
    request.data_path = write_series(dir, 90000);
    request.model = model(ModelKind::transformer, 64, 2, 256, 60000, 1, 1);
    request.data.seq_len = 60000;
    request.data.horizon = 1;
    request.train.threads = 1;
    request.out_dir = dir.filePath("run").toStdString();
    bool started = false;
    request.on_memory_checked = [&](const TrainingMemoryCheck&) { started = true; };
    const QString message = error_of([&] { train_forecast_run(request); });
    QVERIFY2(message.startsWith("training needs about ") && message.contains(" of memory, but only ") &&
                 message.contains(" is available: ") && message.contains("grow with the square of the look-back") &&
                 message.contains("Use a shorter look-back") && !message.contains("--"),
             qPrintable(message));
    QVERIFY(!started);
    QCOMPARE(QDir(dir.filePath("run")).entryList(QDir::Files), QStringList{});
  }

  void refusalNamesTheNumbers() {
    const ModelConfig m = model(ModelKind::aaren, 64, 2, 256, 96, 24, 1);
    TrainingMemoryCheck check{estimate_training_memory(m, 3), std::size_t(1) << 20};
    const QString message = error_of([&] { check_training_memory(check, m); });
    const TrainingMemoryEstimate& e = check.estimate;
    QCOMPARE(message, QString("training needs about %1 of memory, but only 1.0 MiB is available: %2 for %3 parameters "
                              "with their gradients and optimizer state, and %4 for 6 sets of activations (2 per "
                              "thread, %5 each). Use a shorter look-back, a smaller model (width, feed-forward size or "
                              "layers), or fewer threads")
                          .arg(QString::fromStdString(format_bytes(double(e.total_bytes()))))
                          .arg(QString::fromStdString(format_bytes(double(e.parameter_bytes))))
                          .arg(e.parameters)
                          .arg(QString::fromStdString(format_bytes(6.0 * double(e.bytes_per_worker))))
                          .arg(QString::fromStdString(format_bytes(double(e.bytes_per_worker)))));
    check.available = e.total_bytes();
    QCOMPARE(error_of([&] { check_training_memory(check, m); }), QString());
    check.available.reset();
    QCOMPARE(error_of([&] { check_training_memory(check, m); }), QString());
    QCOMPARE(describe(check), "about " + format_bytes(double(e.total_bytes())) + " of memory");
    check.available = std::size_t(3) << 30;
    QCOMPARE(describe(check), "about " + format_bytes(double(e.total_bytes())) + " of memory (3.0 GiB available)");
  }

  void refusalCarriesItsNumbersForEachFrontEnd() {
    const ModelConfig m = model(ModelKind::transformer, 64, 2, 256, 512, 24, 1);
    const TrainingMemoryCheck check{estimate_training_memory(m, 2), std::size_t(1) << 20};
    try {
      check_training_memory(check, m);
      QFAIL("a run of this size fits in 1 MiB");
    } catch (const TrainingMemoryError& error) {
      QCOMPARE(error.kind(), ModelKind::transformer);
      QCOMPARE(error.check().estimate.total_bytes(), check.estimate.total_bytes());
      QCOMPARE(error.check().available, check.available);
      const std::string facts = describe_memory_shortfall(check, ModelKind::transformer);
      QVERIFY(facts.find("grow with the square of the look-back") != std::string::npos);
      QVERIFY(std::string(error.what()).starts_with(facts + ". "));
    }
  }

  void availableMemoryIsReadFromTheSystem() {
    QCOMPARE(meminfo_available_bytes("MemTotal:  4096 kB\nMemFree: 100 kB\nMemAvailable:    2048 kB\n"),
             std::optional<std::size_t>(2048 * 1024));
    QCOMPARE(meminfo_available_bytes("MemTotal:  4096 kB\n"), std::optional<std::size_t>());
    // cgroup v2 without a limit, v1's "unlimited", and a limit with reclaimable cache in its usage.
    QCOMPARE(cgroup_room_bytes("max\n", "1000\n", ""), std::optional<std::size_t>());
    QCOMPARE(cgroup_room_bytes("9223372036854771712\n", "1000\n", ""), std::optional<std::size_t>());
    QCOMPARE(cgroup_room_bytes("1073741824\n", "536870912\n", "active_file 1\ninactive_file 268435456\n"),
             std::optional<std::size_t>(768u << 20));
    QCOMPARE(cgroup_room_bytes("1073741824\n", "536870912\n", "total_inactive_file 268435456\n"),
             std::optional<std::size_t>(768u << 20));
    QCOMPARE(cgroup_room_bytes("1000\n", "5000\n", ""), std::optional<std::size_t>(0));
    const std::optional<std::size_t> available = available_memory_bytes();
    QVERIFY(available.has_value());
    QVERIFY(*available > 0);

    QCOMPARE(format_bytes(300), std::string("300 bytes"));
    QCOMPARE(format_bytes(1536), std::string("1.5 KiB"));
    QCOMPARE(format_bytes(45.0 * 1024 * 1024), std::string("45 MiB"));
    QCOMPARE(format_bytes(10.0 * 1024 * 1024 * 1024), std::string("10 GiB"));
  }
};

QTEST_GUILESS_MAIN(TestMemoryEstimate)
#include "tst_memory_estimate.moc"
