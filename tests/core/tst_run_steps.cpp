// Every task's run takes the same order (core/train/run_steps.hpp): data read, model configured and
// its memory checked, and only then the folder made; so a run refused for its data, its memory or
// weights that do not fit leaves no folder behind, whatever the task.
#include <QtTest>

#include <QTemporaryDir>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/events/event_run.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/io/atomic_file.hpp"
#include "core/train/run_steps.hpp"
#include "support/error_message.hpp"
#include "support/small_runs.hpp"

using namespace aaren;

class TestRunSteps : public QObject {
  Q_OBJECT

 private slots:
  void theStepsRunInOrderAndTheFolderComesAfterTheChecks() {
    const std::string out = (dir_.path() + "/ordered").toStdString();
    std::vector<std::string> done;
    const RunSteps steps{[&] { done.push_back("read"); },
                         [&] {
                           done.push_back("configure");
                           return TrainingMemoryCheck{};
                         },
                         [&] {
                           QVERIFY(std::filesystem::is_directory(out));
                           done.push_back("write config");
                         },
                         [&] { done.push_back("train"); }};
    run_in_order(steps, out, [&](const TrainingMemoryCheck&) {
      QVERIFY(!std::filesystem::exists(out));
      done.push_back("memory checked");
    });
    QCOMPARE(done, (std::vector<std::string>{"read", "configure", "memory checked", "write config", "train"}));
  }

  void aRunRefusedAtConfigurationLeavesNoFolder() {
    const std::string out = (dir_.path() + "/refused").toStdString();
    bool trained = false;
    const RunSteps steps{[] {}, []() -> TrainingMemoryCheck { throw std::runtime_error("too large"); }, [] {},
                         [&] { trained = true; }};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, run_in_order(steps, out, nullptr));
    QVERIFY(!trained);
    QVERIFY(!std::filesystem::exists(out));
  }

  void anEventLogRefusedLeavesNoFolder() {
    const std::string log = (dir_.path() + "/no-times.csv").toStdString();
    write_file_atomically(log, "sequence,mark\na,x\n");
    EventRunRequest request;
    request.data_path = log;
    request.out_dir = (dir_.path() + "/events-never").toStdString();
    const QString message = error_of<std::exception>([&] { train_event_run(request); });
    QVERIFY(!message.isEmpty());
    QVERIFY(!std::filesystem::exists(request.out_dir));
  }

  void weightsThatDoNotFitLeaveNoFolder() {
    ForecastRunRequest request = small_forecast_request((dir_.path() + "/continue-never").toStdString());
    request.initial_params.assign(7, 0.0f);
    const QString message = error_of<std::invalid_argument>([&] { train_forecast_run(request); });
    QVERIFY2(message.contains("the weights to continue from have 7 parameters"), qPrintable(message));
    QVERIFY(!std::filesystem::exists(request.out_dir));

    request.initial_params.clear();
    train_forecast_run(request);
    QVERIFY(std::filesystem::exists(request.out_dir + "/config.json"));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestRunSteps)
#include "tst_run_steps.moc"
