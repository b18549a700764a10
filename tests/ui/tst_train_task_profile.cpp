// The Train page's task profiles: one per kind of loaded data, each the profile of its own kind,
// and what sets the tasks apart said once (defaults, charts, continuing, the form's window).
#include <QtTest>

#include "core/classify/classify_run.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/state/train_task_profile.hpp"
#include "ui/state/training_choice.hpp"

using aaren::LoadedData;
using aaren::TrainingTaskKind;
using aaren::ui::TrainTaskProfile;
using aaren::ui::trainTaskProfile;

class TestTrainTaskProfile : public QObject {
  Q_OBJECT

 private slots:
  void eachKindHasItsOwnProfile_data() {
    QTest::addColumn<LoadedData>("data");
    QTest::addColumn<int>("task");  // -1: none
    QTest::newRow("nothing") << LoadedData::nothing << -1;
    QTest::newRow("time series") << LoadedData::time_series << int(TrainingTaskKind::forecast);
    QTest::newRow("event log") << LoadedData::event_log << int(TrainingTaskKind::events);
    QTest::newRow("labelled series") << LoadedData::labelled_series << int(TrainingTaskKind::classify);
  }
  void eachKindHasItsOwnProfile() {
    QFETCH(LoadedData, data);
    QFETCH(int, task);
    const TrainTaskProfile& profile = trainTaskProfile(data);
    QCOMPARE(profile.data, data);
    QCOMPARE(profile.task ? int(*profile.task) : -1, task);
    QVERIFY(profile.summary && profile.hint);
    // Only forecasters continue from their weights and draw their window on the split.
    QCOMPARE(profile.continuable, data == LoadedData::time_series);
    QCOMPARE(profile.describesWindow, data == LoadedData::time_series);
  }

  void whatSetsTheTasksApart() {
    const TrainTaskProfile& events = trainTaskProfile(LoadedData::event_log);
    QVERIFY(events.lossPerEvent && events.eventWindows && !events.wholeCases && !events.accuracyChart);
    const TrainTaskProfile& cases = trainTaskProfile(LoadedData::labelled_series);
    QVERIFY(cases.accuracyChart && cases.testFile && cases.wholeCases && !cases.lossTitle.isEmpty());
    QVERIFY(cases.defaults.has_value());
    const aaren::TrainSettings classification = aaren::classification_train_settings();
    QCOMPARE(cases.defaults->epochs, classification.epochs);
    QCOMPARE(cases.defaults->batch, classification.batch);
    QCOMPARE(cases.defaults->patience, classification.patience);
    QVERIFY(!trainTaskProfile(LoadedData::time_series).defaults);
  }

  // Each task's request carries the loaded file and the form's choice.
  void requestsAreTheTasksOwn() {
    aaren::ui::CurrentDataset dataset;
    aaren::ui::TrainingChoice choice;
    choice.model.d_model = 32;
    choice.train.epochs = 3;

    auto table = std::make_shared<aaren::TimeSeriesTable>();
    table->values = aaren::Matrix<double>(40, 3);
    dataset.setData(QStringLiteral("series.csv"), {}, table);
    const auto series = std::get<aaren::ForecastRunRequest>(trainTaskProfile(dataset.kind()).request(dataset, choice));
    QCOMPARE(series.data_path, std::string("series.csv"));
    QCOMPARE(series.model.channels, 3);  // from the data, not the form
    QCOMPARE(series.model.d_model, 32);
    QCOMPARE(series.train.epochs, 3);

    dataset.setEventLog(QStringLiteral("log.csv"), {}, std::make_shared<aaren::EventLog>());
    const auto events = std::get<aaren::EventRunRequest>(trainTaskProfile(dataset.kind()).request(dataset, choice));
    QCOMPARE(events.data_path, std::string("log.csv"));
    QCOMPARE(events.model.backbone.d_model, 32);

    dataset.setLabelledSeries(QStringLiteral("cases.ts"), std::make_shared<aaren::LabelledSeriesSet>());
    dataset.setTestPath(QStringLiteral("test.ts"));
    const auto cases = std::get<aaren::ClassifyRunRequest>(trainTaskProfile(dataset.kind()).request(dataset, choice));
    QCOMPARE(cases.test_path, std::string("test.ts"));
    QCOMPARE(cases.train.epochs, 3);
    QCOMPARE(cases.cv_folds, aaren::kCvFoldsAuto);  // as the command line's default
    QCOMPARE(cases.model.members, aaren::kDefaultMembers);
    QVERIFY(cases.model.augmentation == aaren::kDefaultAugmentation);
    choice.members = 3;
    choice.augmentation = {.scale = true};
    choice.cvFolds = 0;
    const auto chosen = std::get<aaren::ClassifyRunRequest>(trainTaskProfile(dataset.kind()).request(dataset, choice));
    QCOMPARE(chosen.model.members, 3);
    QVERIFY(chosen.model.augmentation.scale && !chosen.model.augmentation.slice && !chosen.model.augmentation.jitter);
    QCOMPARE(chosen.cv_folds, 0);
    QVERIFY(!trainTaskProfile(aaren::LoadedData::nothing).request);
  }

  // The hint says how the epochs will be chosen for the file loaded, as the run will choose them.
  void theHintSaysHowTheEpochsAreChosen_data() {
    QTest::addColumn<int>("cases");
    QTest::addColumn<int>("cvFolds");
    QTest::addColumn<int>("members");
    QTest::addColumn<QString>("expected");
    const int automatic = aaren::kCvFoldsAuto;
    QTest::newRow("30 cases") << 30 << automatic << 1
                              << QStringLiteral("with so few cases, 5-fold cross-validation on the file chooses the number "
                                                "of epochs, and each model then trains on every case.");
    QTest::newRow("3 cases") << 3 << automatic << 1 << QStringLiteral("3-fold cross-validation");
    QTest::newRow("999 cases") << 999 << automatic << 1 << QStringLiteral("5-fold cross-validation");
    QTest::newRow("1000 cases") << 1000 << automatic << 1
                                << QStringLiteral("a stratified fifth of the file is held out for validation");
    QTest::newRow("30 cases, held out") << 30 << 0 << 1 << QStringLiteral("a stratified fifth of the file is held out");
    QTest::newRow("2000 cases, 10 folds") << 2000 << 10 << 1 << QStringLiteral("; 10-fold cross-validation on the file");
    QTest::newRow("an ensemble") << 30 << automatic << 4
                                 << QStringLiteral(" Each model is an ensemble of 4, its class probabilities their mean.");
    QTest::newRow("30 cases, ensemble auto") << 30 << automatic << aaren::kMembersAuto
                                             << QStringLiteral(" Each model is an ensemble of 3");
    QTest::newRow("1000 cases, ensemble auto") << 1000 << automatic << aaren::kMembersAuto
                                               << QStringLiteral("held out for validation");
  }
  void theHintSaysHowTheEpochsAreChosen() {
    QFETCH(int, cases);
    QFETCH(int, cvFolds);
    QFETCH(int, members);
    QFETCH(QString, expected);
    auto set = std::make_shared<aaren::LabelledSeriesSet>();
    set->series.resize(std::size_t(cases));
    for (aaren::LabelledSeries& s : set->series) s.length = 12;
    aaren::ui::CurrentDataset dataset;
    dataset.setLabelledSeries(QStringLiteral("cases.ts"), set);
    aaren::ui::TrainingChoice choice;
    choice.cvFolds = cvFolds;
    choice.members = members;
    const QString hint = trainTaskProfile(dataset.kind()).hint(dataset, choice);
    QVERIFY2(hint.contains(expected) && hint.contains("up to 12 steps"), qPrintable(hint));
    QCOMPARE(hint.contains(QStringLiteral("ensemble")), members > 1 || (members == aaren::kMembersAuto && cases < 1000));
  }
};

QTEST_MAIN(TestTrainTaskProfile)
#include "tst_train_task_profile.moc"
