// The device choices of the app. The Train page's CUDA entry names the GPU and its memory where one
// can be used, and otherwise is disabled with the reason in its tooltip and in the hint beside it;
// an event log disables it too, since event models train on the CPU only; the chosen device
// round-trips through the form's settings. The Efficiency page streams on the GPU where one can be
// used, and its device round-trips through its options.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QStandardItemModel>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/bench/stream_bench.hpp"
#include "core/events/event_log.hpp"
#include "core/model/parameter_layout.hpp"
#include "gpu/device_info.hpp"
#include "gpu/forecast_device.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/state/current_dataset.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

constexpr int kCuda = 1;  // the CPU is entry 0

bool cudaEntryEnabled(QComboBox* combo) {
  const auto* items = qobject_cast<QStandardItemModel*>(combo->model());
  return items && items->item(kCuda)->isEnabled();
}

}  // namespace

class TestDeviceSettings : public QObject {
  Q_OBJECT

 private slots:
  void cudaEntryShowsTheDeviceOrWhyNot() {
    ModelSettingsForm form;
    auto* combo = form.findChild<QComboBox*>(QStringLiteral("deviceCombo"));
    auto* hint = form.findChild<QLabel*>(QStringLiteral("deviceHint"));
    QVERIFY(combo && hint);
    QCOMPARE(combo->count(), 2);
    QCOMPARE(combo->currentIndex(), 0);
    const gpu::DeviceInfo info = gpu::query_device();
    if (info.available) {
      QVERIFY(cudaEntryEnabled(combo));
      QVERIFY2(combo->itemText(kCuda).contains(QString::fromStdString(info.name)) &&
                   combo->itemText(kCuda).endsWith(QStringLiteral(" GiB")),
               qPrintable(combo->itemText(kCuda)));
      QVERIFY(hint->text().isEmpty());
    } else {
      QVERIFY(!cudaEntryEnabled(combo));
      const QString reason = QStringLiteral("CUDA unavailable: ") + QString::fromStdString(info.reason);
      QCOMPARE(combo->itemData(kCuda, Qt::ToolTipRole).toString(), reason);
      QCOMPARE(hint->text(), reason);
      QVERIFY(!hint->isHidden());
    }
  }

  void eventLogsTrainOnTheCpu() {
    ModelSettingsForm form;
    auto* combo = form.findChild<QComboBox*>(QStringLiteral("deviceCombo"));
    auto* hint = form.findChild<QLabel*>(QStringLiteral("deviceHint"));
    QVERIFY(combo && hint);
    const bool available = gpu::query_device().available;
    if (available) combo->setCurrentIndex(kCuda);
    form.setEventLog(true);
    QVERIFY(!cudaEntryEnabled(combo));
    QCOMPARE(combo->currentIndex(), 0);
    QCOMPARE(form.choice().device, ComputeDevice::cpu);
    if (available) {
      QVERIFY2(hint->text().contains(QStringLiteral("event models train on the CPU only")), qPrintable(hint->text()));
      QVERIFY(combo->itemData(kCuda, Qt::ToolTipRole).toString().contains(QStringLiteral("event models")));
    }
    form.setEventLog(false);
    QCOMPARE(cudaEntryEnabled(combo), available);
    QCOMPARE(hint->text().isEmpty(), available);
  }

  void chosenDeviceRoundTrips() {
    ModelSettingsForm form;
    TrainingChoice wanted;
    wanted.model.d_model = 48;
    wanted.train.epochs = 7;
    wanted.device = ComputeDevice::cpu;
    form.setChoice(wanted);
    QCOMPARE(form.choice().device, ComputeDevice::cpu);
    QCOMPARE(form.choice().model.d_model, 48);

    // CUDA is kept where it can be used; elsewhere the form falls back to the CPU.
    wanted.device = ComputeDevice::cuda;
    form.setChoice(wanted);
    const ComputeDevice expected = gpu::query_device().available ? ComputeDevice::cuda : ComputeDevice::cpu;
    QCOMPARE(form.choice().device, expected);
    QCOMPARE(form.choice().train.epochs, 7);
    wanted.device = ComputeDevice::cpu;
    form.setChoice(wanted);
    QCOMPARE(form.choice().device, ComputeDevice::cpu);
  }

  // The Train page tells its form which kind of data the Data page holds.
  void trainPageDisablesCudaForAnEventLog() {
    CurrentDataset dataset;
    TrainPage page(&dataset);
    auto* combo = page.findChild<QComboBox*>(QStringLiteral("deviceCombo"));
    auto* hint = page.findChild<QLabel*>(QStringLiteral("deviceHint"));
    QVERIFY(combo && hint);
    const bool available = gpu::query_device().available;
    QCOMPARE(cudaEntryEnabled(combo), available);

    const QString path = QStringLiteral(AAREN_SOURCE_DIR "/datasets/coal_mining_disasters.csv");
    const EventLogOptions options;
    dataset.setEventLog(path, options, std::make_shared<const EventLog>(read_event_log(path.toStdString(), options)));
    QVERIFY(!cudaEntryEnabled(combo));
    QCOMPARE(combo->currentIndex(), 0);
    QVERIFY2(!hint->text().isEmpty(), "the hint says why the GPU cannot be chosen");
    if (available) QVERIFY2(hint->text().contains(QStringLiteral("event models")), qPrintable(hint->text()));

    dataset.clear();
    QCOMPARE(cudaEntryEnabled(combo), available);
  }

  void efficiencyPageStreamsOnTheGpuWhereItCan() {
    EfficiencyPage page;
    auto* combo = page.findChild<QComboBox*>(QStringLiteral("device"));
    QVERIFY(combo);
    const gpu::DeviceInfo info = gpu::query_device();
    QCOMPARE(cudaEntryEnabled(combo), info.available);
    QCOMPARE(combo->itemData(kCuda, Qt::ToolTipRole).toString(), QString::fromStdString(gpu::describe(info)));
    QVERIFY2(!page.options().stepper, "the CPU streams unless the GPU is chosen");

    bench::StreamBenchOptions wanted = page.options();
    wanted.stepper = bench::device_stream_stepper<gpu::DeviceForecastStream>();
    page.setOptions(wanted);
    QCOMPARE(combo->currentIndex(), info.available ? kCuda : 0);
    QCOMPARE(bool(page.options().stepper), info.available);
    wanted.stepper = nullptr;
    page.setOptions(wanted);
    QCOMPARE(combo->currentIndex(), 0);
    if (info.available) return;

    // Without a GPU the device's stream cannot even be made, and says why.
    ModelConfig config;
    config.channels = 1;
    config.seq_len = 1;
    config.horizon = 1;
    const std::vector<float> params(ParameterLayout(config).total(), 0.0f);
    try {
      bench::device_stream_stepper<gpu::DeviceForecastStream>()(config, params.data(), 16);
      QFAIL("a device stream was made without a device");
    } catch (const std::runtime_error& error) {
      QVERIFY2(QString::fromUtf8(error.what()).startsWith(QStringLiteral("CUDA unavailable: ")), error.what());
    }
  }
};

QTEST_MAIN(TestDeviceSettings)
#include "tst_device_settings.moc"
