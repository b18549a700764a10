// check_continuable: a run is trained further only on data of its kind with its channels, and the
// verdict carries the facts each front end phrases.
#include <QtTest>

#include "core/planning/continuation.hpp"

using namespace aaren;

namespace {

RunEntry forecastRun(std::vector<std::string> channels) {
  ForecastModelFiles files;
  files.config.channels = std::move(channels);
  RunEntry run;
  run.models.push_back({"run", files});
  return run;
}

RunEntry eventRun() {
  RunEntry run;
  run.models.push_back({"run", EventModelFiles{}});
  return run;
}

}  // namespace

class TestContinuation : public QObject {
  Q_OBJECT

 private slots:
  void the_same_channels_continue() {
    const RunEntry run = forecastRun({"load", "temperature"});
    QVERIFY(check_continuable(&run, LoadedData::time_series, {"load", "temperature"}).ok());
    QVERIFY(check_continuable(&run, LoadedData::nothing, {}).ok());  // the launch then asks for data
  }

  void other_channels_are_refused_with_both_lists() {
    const RunEntry run = forecastRun({"load", "temperature"});
    for (const std::vector<std::string>& loaded :
         {std::vector<std::string>{"level"}, std::vector<std::string>{"temperature", "load"}}) {
      const ContinueCheck check = check_continuable(&run, LoadedData::time_series, loaded);
      QCOMPARE(check.refusal, ContinueRefusal::channels_differ);
      QCOMPARE(check.trained_channels, (std::vector<std::string>{"load", "temperature"}));
      QCOMPARE(check.loaded_channels, loaded);
    }
  }

  void event_logs_and_event_models_start_fresh() {
    QCOMPARE(check_continuable(nullptr, LoadedData::event_log, {}).refusal, ContinueRefusal::event_data);
    const RunEntry events = eventRun();
    QCOMPARE(check_continuable(&events, LoadedData::time_series, {"load"}).refusal, ContinueRefusal::event_model);
    QCOMPARE(check_continuable(&events, LoadedData::event_log, {}).refusal, ContinueRefusal::event_data);
  }

  void labelled_series_and_classifiers_start_fresh() {
    QCOMPARE(check_continuable(nullptr, LoadedData::labelled_series, {}).refusal, ContinueRefusal::classifier_data);
    RunEntry classifiers;
    ModelRunEntry model;
    model.files = ClassifyModelFiles{};
    classifiers.models = {model, model};
    QCOMPARE(check_continuable(&classifiers, LoadedData::time_series, {"load"}).refusal,
             ContinueRefusal::classifier_model);
    QCOMPARE(check_continuable(&classifiers, LoadedData::nothing, {}).refusal, ContinueRefusal::classifier_model);
  }

  void a_run_without_models_is_a_caller_error() {
    const RunEntry empty;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, check_continuable(&empty, LoadedData::time_series, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, check_continuable(nullptr, LoadedData::time_series, {}));
  }
};

QTEST_GUILESS_MAIN(TestContinuation)
#include "tst_continuation.moc"
