// The models that train on the CPU only, said once in core (core/train/cpu_only_models.hpp): the
// reasons, the refusal of a GPU for them, and the forecasting run that refuses a device engine for a
// model of features MS before it reads or writes anything.
#include <QtTest>

#include <filesystem>
#include <stdexcept>

#include "core/forecast/forecast_run.hpp"
#include "core/train/cpu_only_models.hpp"

namespace aaren {

class CpuOnlyModelsTest : public QObject {
  Q_OBJECT

 private slots:
  void reasons() {
    QCOMPARE(cpu_only_reason(TrainingTaskKind::events), std::string("event models train on the CPU only"));
    QCOMPARE(cpu_only_reason(TrainingTaskKind::classify), std::string("classifiers train on the CPU only"));
    QVERIFY(cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS).find("features MS") != std::string::npos);
    QVERIFY(cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::M).empty());
    QVERIFY(cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::S).empty());
  }

  void aGpuIsRefusedForCpuOnlyModelsAlone() {
    for (const TrainingTaskKind task : {TrainingTaskKind::events, TrainingTaskKind::classify}) {
      require_trainable_on(ComputeDevice::cpu, task);
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, require_trainable_on(ComputeDevice::cuda, task));
    }
    require_trainable_on(ComputeDevice::cuda, TrainingTaskKind::forecast, ForecastFeatures::M);
    require_trainable_on(ComputeDevice::cuda, TrainingTaskKind::forecast, ForecastFeatures::S);
    try {
      require_trainable_on(ComputeDevice::cuda, TrainingTaskKind::forecast, ForecastFeatures::MS);
      QFAIL("a GPU was accepted for a model of features MS");
    } catch (const std::invalid_argument& error) {
      QCOMPARE(std::string(error.what()), cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS));
    }
  }

  // The engine factory is never called and nothing is read or written: the data file and the run
  // folder do not exist.
  void theForecastRunRefusesAnEngineForFeaturesMs() {
    QTemporaryDir dir;
    const std::string out = dir.filePath(QStringLiteral("run")).toStdString();
    ForecastRunRequest request;
    request.data_path = dir.filePath(QStringLiteral("missing.csv")).toStdString();
    request.out_dir = out;
    request.csv.target = "OT";
    request.data.features = ForecastFeatures::MS;
    bool called = false;
    request.engine = [&called](const ModelConfig&, const TrainSettings&, const WindowSet&, const WindowSet&) {
      called = true;
      return std::unique_ptr<StepEngine>();
    };
    try {
      train_forecast_run(request);
      QFAIL("a device engine was accepted for a model of features MS");
    } catch (const std::invalid_argument& error) {
      QCOMPARE(std::string(error.what()), cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS));
    }
    QVERIFY(!called);
    QVERIFY(!std::filesystem::exists(out));
  }
};

}  // namespace aaren

QTEST_MAIN(aaren::CpuOnlyModelsTest)
#include "tst_cpu_only_models.moc"
