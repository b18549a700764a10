// The Train page: both models train for three epochs on a tiny data set while the window stays
// responsive (its event loop never waits 100 ms), their losses reach the chart and their run
// folders hold the four files; pause holds training while the window stays responsive, resume
// continues, stop keeps a loadable model; closing the window during training asks, and when told
// to, stops with a loadable model on disk.
#include <QtTest>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QPushButton>
#include <QXYSeries>
#include <cmath>
#include <functional>

#include "core/data/time_series_csv.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "core/model/forecast_model.hpp"
#include "support/event_loop_gap_meter.hpp"
#include "support/question_answerer.hpp"
#include "support/test_files.hpp"
#include "ui/chart_panel.hpp"
#include "ui/charts/model_colors.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/settings.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/wording/plan_wording.hpp"
#include "ui/wording/training_wording.hpp"
#include "ui/wording/model_names.hpp"

using namespace aaren::ui;

namespace {

constexpr int kTrainingTimeoutMs = 300000;
constexpr qint64 kLargestEventLoopGapMs = 100;

// Two daily channels with a weekly and a monthly rhythm: enough structure to learn, no noise.
void loadInto(CurrentDataset& dataset, const QString& path) {
  aaren::CsvReadOptions options;
  dataset.setData(path, options,
                  std::make_shared<const aaren::TimeSeriesTable>(aaren::read_time_series_csv(path.toStdString(), options)));
}

constexpr int kResponsivenessEpochs = 6;

TrainingChoice tinyChoice(int epochs, std::vector<aaren::ModelKind> models) {
  TrainingChoice choice;
  choice.models = std::move(models);
  choice.model.d_model = 8;
  choice.model.heads = 2;
  choice.model.layers = 1;
  choice.model.d_ff = 16;
  choice.model.seq_len = 16;
  choice.model.horizon = 8;
  choice.train.epochs = epochs;
  choice.train.batch = 16;
  choice.train.patience = 0;
  return choice;
}

bool hasRunFiles(const QString& dir) {
  for (const char* name : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
    if (!QFileInfo(QDir(dir).filePath(QLatin1String(name))).isFile()) return false;
  return true;
}

}  // namespace

class TestTrainPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void bothModelsTrainWhileTheWindowStaysResponsive();
  void pauseHoldsResumeContinuesStopKeepsTheModel();
  void startWithoutDataExplainsWhy();
  void closingDuringTrainingAsksThenKeepsALoadableModel();
  void continueStartsFromTheRunsWeights();
  void continueNeedsARunAndTheSameChannels();
  void windowsAreFittedToShortDataOrExplainedInThePagesWords();
  void memoryRefusalNamesThePagesFields();
  void forecastPageOpensOnTheNewestRun();
  void aConstantChannelIsAWarning();
  void timeLeftCoversTheWholeJob_data();
  void timeLeftCoversTheWholeJob();
  void anEpochsEndNamesWhatChoosesTheEpoch();
  void featuresChoiceReachesTheRunAndIsRemembered();
  void featuresOfTheTargetNeedOne();
  void anyOfTheThreeModelsTrainsSideBySide();
  void modelsLabelNamesTheRunFolder_data();
  void modelsLabelNamesTheRunFolder();

 private:
  QTemporaryDir folder_;
  QString csv_;
};

void TestTrainPage::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  // The window saves its pages' choices when it closes: into this test's folder, not a shared one.
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, folder_.filePath(QStringLiteral("settings")));
  csv_ = writeDailySeries(folder_.filePath(QStringLiteral("tiny.csv")), 240);
}

void TestTrainPage::bothModelsTrainWhileTheWindowStaysResponsive() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-both")));
  // Still a small model, but one whose epochs take long enough for the meter below to see many
  // timeouts: work on the GUI thread in any epoch, or a wait for the worker, would show.
  TrainingChoice choice = tinyChoice(kResponsivenessEpochs, {aaren::ModelKind::aaren, aaren::ModelKind::transformer});
  choice.model.d_model = 32;
  choice.model.heads = 4;
  choice.model.layers = 2;
  choice.model.d_ff = 64;
  choice.model.seq_len = 48;
  choice.model.horizon = 12;
  page.settingsForm()->setChoice(choice);

  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QSignalSpy progress(&page, &TrainPage::trainingProgress);
  QSignalSpy status(&page, &TrainPage::statusMessage);
  // From the click to the finished run on disk, the GUI thread never goes 100 ms without serving
  // its event loop: starting, every progress report (chart updates), and writing and listing the
  // run at the end. A user notices a pause of about that length.
  EventLoopGapMeter gaps;
  gaps.start();
  QVERIFY(page.startTraining());
  // Start returns at once: the work happens on the worker thread.
  QVERIFY(page.isTraining());
  QCOMPARE(finished.count(), 0);
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  gaps.stop();
  qInfo("largest event-loop gap while training: %lld ms (%d timeouts)", gaps.largestGapMs(), gaps.timeouts());
  QVERIFY(gaps.timeouts() > 0);
  QVERIFY2(gaps.largestGapMs() < kLargestEventLoopGapMs,
           qPrintable(QStringLiteral("the GUI thread did not serve its event loop for %1 ms while training (%2 timeouts)")
                          .arg(gaps.largestGapMs())
                          .arg(gaps.timeouts())));
  QVERIFY(!page.isTraining());
  QCOMPARE(finished.first().at(1).toBool(), false);
  QCOMPARE(finished.first().at(2).toString(), QString());
  // The finished run can be trained further at once, without opening it from the list.
  QVERIFY(page.findChild<QPushButton*>(QStringLiteral("continueButton"))->isEnabled());
  QVERIFY(progress.count() >= 4);  // at least a step and an epoch's end for each model
  // The status bar no longer says "Training into …" once training is over.
  QVERIFY(status.count() >= 2);
  QVERIFY2(status.last().first().toString().startsWith(QStringLiteral("Training finished; the run is in ")),
           qPrintable(status.last().first().toString()));

  const QList<QXYSeries*> series = page.lossChart()->dataSeries();
  QCOMPARE(series.size(), 4);
  QStringList names;
  for (const QXYSeries* s : series) {
    names << s->name();
    QVERIFY2(s->count() > 0, qPrintable(s->name()));
  }
  QCOMPARE(names, QStringList({"Aaren training", "Aaren validation", "Transformer training", "Transformer validation"}));

  const QString run = page.currentRun();
  QCOMPARE(finished.first().at(0).toString(), run);
  QVERIFY(run.startsWith(folder_.filePath(QStringLiteral("runs-both"))));
  for (const char* model : {"aaren", "transformer"}) {
    const QString dir = QDir(run).filePath(QLatin1String(model));
    QVERIFY2(hasRunFiles(dir), qPrintable(dir));
    const aaren::LoadedForecastRun loaded = aaren::load_forecast_run(dir.toStdString());
    QCOMPARE(std::string(aaren::to_string(loaded.config.model.kind)), std::string(model));
    QCOMPARE(loaded.config.model.d_model, 32);
    QCOMPARE(loaded.config.train.seed, 1u);
    QCOMPARE(int(loaded.metrics.epochs.size()), kResponsivenessEpochs);
    QVERIFY(loaded.metrics.test.windows > 0);
  }

  // The run list, read again off the GUI thread once training ended, shows the new run with both
  // models and their metrics.
  QTRY_VERIFY_WITH_TIMEOUT(!page.runList()->isListing(), kTrainingTimeoutMs);
  const std::vector<aaren::RunEntry>& runs = page.runList()->runs();
  QCOMPARE(runs.size(), std::size_t(1));
  QCOMPARE(runPath(runs.front().dir), QDir(run).absolutePath());
  QVERIFY(runs.front().side_by_side);
  QCOMPARE(runs.front().models.size(), std::size_t(2));
  QVERIFY(runs.front().models.front().has_metrics());
  QCOMPARE(page.runList()->selectedRun(), QDir(run).absolutePath());
}

void TestTrainPage::pauseHoldsResumeContinuesStopKeepsTheModel() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-pause")));
  page.settingsForm()->setChoice(tinyChoice(100000, {aaren::ModelKind::aaren}));

  QSignalSpy progress(&page, &TrainPage::trainingProgress);
  QSignalSpy paused(&page, &TrainPage::pausedChanged);
  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, kTrainingTimeoutMs);

  page.pauseTraining();
  QVERIFY(paused.wait(kTrainingTimeoutMs));
  QCOMPARE(paused.last().at(0).toBool(), true);
  QVERIFY(page.isPaused());
  QVERIFY(page.isTraining());

  // While paused the window keeps handling events, and no training step is reported.
  const int reported = progress.count();
  QTimer ticker;
  ticker.setInterval(20);
  QSignalSpy ticks(&ticker, &QTimer::timeout);
  ticker.start();
  for (int i = 0; i < 10; ++i) QVERIFY(ticks.wait(kTrainingTimeoutMs));
  QCOMPARE(progress.count(), reported);

  page.resumeTraining();
  QTRY_VERIFY_WITH_TIMEOUT(progress.count() > reported, kTrainingTimeoutMs);
  QVERIFY(!page.isPaused());
  QCOMPARE(paused.last().at(0).toBool(), false);

  page.stopTraining();
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QCOMPARE(finished.first().at(1).toBool(), true);
  QVERIFY(!page.isTraining());
  QVERIFY(hasRunFiles(page.currentRun()));
  const aaren::LoadedForecastRun loaded = aaren::load_forecast_run(page.currentRun().toStdString());
  QCOMPARE(loaded.metrics.stop, std::string("cancelled"));
  QVERIFY(!loaded.params.empty());
}

void TestTrainPage::startWithoutDataExplainsWhy() {
  CurrentDataset dataset;
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-none")));
  QVERIFY(!page.startTraining());
  QVERIFY(!page.isTraining());
  QVERIFY(page.messageBar()->text().contains(QStringLiteral("Data page")));

  // Settings the model cannot have are refused before any folder is made.
  loadInto(dataset, csv_);
  TrainingChoice choice = tinyChoice(1, {aaren::ModelKind::aaren});
  choice.model.heads = 3;
  page.settingsForm()->setChoice(choice);
  QVERIFY(!page.startTraining());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("heads")), qPrintable(page.messageBar()->text()));
  QVERIFY(!QFileInfo::exists(folder_.filePath(QStringLiteral("runs-none"))) ||
          QDir(folder_.filePath(QStringLiteral("runs-none"))).isEmpty());
}

void TestTrainPage::closingDuringTrainingAsksThenKeepsALoadableModel() {
  MainWindow window;
  const StudioPages pages = addStudioPages(window);
  loadInto(*pages.dataset, csv_);
  TrainPage* train = pages.train;
  train->setRunsFolder(folder_.filePath(QStringLiteral("runs-close")));
  train->settingsForm()->setChoice(tinyChoice(100000, {aaren::ModelKind::aaren, aaren::ModelKind::transformer}));
  window.show();

  QSignalSpy progress(train, &TrainPage::trainingProgress);
  QVERIFY(train->startTraining());
  QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, kTrainingTimeoutMs);

  answerNextQuestion(QMessageBox::RejectRole);
  QVERIFY(!window.close());
  QVERIFY(train->isTraining());

  // Stopping writes the run folder on the training thread: close() returns at once with the
  // window still open and saying so, and the window closes itself once the folder is written.
  answerNextQuestion(QMessageBox::AcceptRole);
  QVERIFY(!window.close());
  QVERIFY(window.isVisible());
  QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Finishing the run folder")),
           qPrintable(window.statusBar()->currentMessage()));
  QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), kTrainingTimeoutMs);
  QVERIFY(!train->isTraining());
  const QString dir = QDir(train->currentRun()).filePath(QStringLiteral("aaren"));
  QVERIFY2(hasRunFiles(dir), qPrintable(dir));
  const aaren::LoadedForecastRun loaded = aaren::load_forecast_run(dir.toStdString());
  QCOMPARE(loaded.metrics.stop, std::string("cancelled"));
  // The second model never started: stopping ends the whole job.
  QVERIFY(!QFileInfo::exists(QDir(train->currentRun()).filePath(QStringLiteral("transformer/config.json"))));
}

namespace {

float maxAbsDifference(const std::vector<float>& a, const std::vector<float>& b) {
  float worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

}  // namespace

void TestTrainPage::continueStartsFromTheRunsWeights() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-continue")));
  page.settingsForm()->setChoice(tinyChoice(1, {aaren::ModelKind::aaren}));
  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  const QString first = page.currentRun();
  QCOMPARE(page.continuableRun(), first);

  // With the smallest learning rate, the continued weights stay next to the earlier run's, far
  // closer than the earlier run is to a fresh initialization.
  TrainingChoice slow = tinyChoice(1, {aaren::ModelKind::aaren});
  slow.train.lr = 1e-5;
  page.settingsForm()->setChoice(slow);
  QVERIFY(page.continueTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QCOMPARE(finished.last().at(2).toString(), QString());
  const QString second = page.currentRun();
  QVERIFY(second != first);
  QVERIFY2(second.endsWith(QStringLiteral("-continued")), qPrintable(second));

  const aaren::LoadedForecastRun earlier = aaren::load_forecast_run(first.toStdString());
  const aaren::LoadedForecastRun continued = aaren::load_forecast_run(second.toStdString());
  QCOMPARE(continued.config.model.d_model, earlier.config.model.d_model);
  QCOMPARE(continued.config.train.lr, 1e-5);
  std::vector<float> fresh;
  std::mt19937 rng(earlier.config.train.seed);
  aaren::init_parameters(fresh, aaren::ParameterLayout(earlier.config.model), rng);
  const float moved = maxAbsDifference(continued.params, earlier.params);
  const float trained = maxAbsDifference(earlier.params, fresh);
  QVERIFY2(moved * 10 < trained, qPrintable(QStringLiteral("continued moved %1, first run moved %2").arg(moved).arg(trained)));
}

void TestTrainPage::continueNeedsARunAndTheSameChannels() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-continue-checks")));
  QVERIFY(page.continuableRun().isEmpty());
  QVERIFY(!page.continueTraining());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("Open a run")), qPrintable(page.messageBar()->text()));

  page.settingsForm()->setChoice(tinyChoice(1, {aaren::ModelKind::aaren}));
  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));

  // Other data: one column only.
  const QString other = folder_.filePath(QStringLiteral("one-channel.csv"));
  {
    QFile file(other);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QTextStream out(&file);
    out << "t,level\n";
    for (int t = 0; t < 200; ++t) out << t << ',' << std::sin(t * 0.3) << '\n';
  }
  loadInto(dataset, other);
  QVERIFY(!page.continueTraining());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("load, temperature")), qPrintable(page.messageBar()->text()));
  QVERIFY(!page.isTraining());

  // The page reads the run's config.json only; the worker loads the weights and refuses a damaged
  // checkpoint, naming it.
  loadInto(dataset, csv_);
  {
    QFile model(QDir(page.continuableRun()).filePath(QStringLiteral("model.safetensors")));
    QVERIFY(model.open(QIODevice::WriteOnly | QIODevice::Truncate));
    model.write("not a checkpoint");
  }
  finished.clear();
  QVERIFY(page.continueTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  const QString error = finished.last().at(2).toString();
  QVERIFY2(error.contains(QStringLiteral("model.safetensors")), qPrintable(error));
}

void TestTrainPage::memoryRefusalNamesThePagesFields() {
  aaren::ModelConfig model;
  model.kind = aaren::ModelKind::aaren;
  const aaren::TrainingMemoryCheck check{aaren::estimate_training_memory(model, 2), std::size_t(1) << 20};
  const QString message = aaren::ui::describeForTrainPage(aaren::TrainingMemoryError(check, model.kind));
  QVERIFY2(message.startsWith(QString::fromStdString(aaren::describe_memory_shortfall(check, model.kind))),
           qPrintable(message));
  QVERIFY2(message.endsWith(QStringLiteral("Lower the look-back, d_model, d_ff or the layers in the Train page")),
           qPrintable(message));
  QVERIFY2(!message.contains(QStringLiteral("--")), qPrintable(message));
}

void TestTrainPage::windowsAreFittedToShortDataOrExplainedInThePagesWords() {
  CurrentDataset dataset;
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-short")));
  TrainingChoice choice = tinyChoice(1, {aaren::ModelKind::aaren});
  choice.model.seq_len = 96;
  choice.model.horizon = 96;
  page.settingsForm()->setChoice(choice);

  // 200 rows split 0.7/0.1/0.2 own 140, 20 and 40 rows: 96/96 does not fit, and the longest
  // lengths of the ladder that do are 48/12.
  loadInto(dataset, writeDailySeries(folder_.filePath(QStringLiteral("short.csv")), 200));
  QCOMPARE(page.settingsForm()->choice().model.seq_len, 48);
  QCOMPARE(page.settingsForm()->choice().model.horizon, 12);

  // Lengths set by hand that do not fit are refused in the page's words, not the command line's.
  choice.model.seq_len = 150;
  choice.model.horizon = 10;
  page.settingsForm()->setChoice(choice);
  QVERIFY(!page.startTraining());
  QVERIFY(!page.isTraining());
  const QString message = page.messageBar()->text();
  QVERIFY2(message.contains(QStringLiteral("the training part has 140 rows but look-back 150 + horizon 10 needs at "
                                           "least 160; lower the look-back or the horizon in the Train page")),
           qPrintable(message));
  QVERIFY2(!message.contains(QStringLiteral("--")), qPrintable(message));
}

// Each run the Train page writes is the one the Forecast page shows next, the newest after later
// runs too, without the user picking it.
void TestTrainPage::forecastPageOpensOnTheNewestRun() {
  MainWindow window;
  const StudioPages pages = addStudioPages(window);
  loadInto(*pages.dataset, csv_);
  pages.train->setRunsFolder(folder_.filePath(QStringLiteral("runs-newest")));
  QSignalSpy finished(pages.train, &TrainPage::trainingFinished);
  QSignalSpy shown(pages.forecast, &ForecastPage::runLoaded);
  const std::vector<std::vector<aaren::ModelKind>> jobs = {
      {aaren::ModelKind::aaren}, {aaren::ModelKind::transformer}, {aaren::ModelKind::aaren, aaren::ModelKind::transformer}};
  for (const std::vector<aaren::ModelKind>& models : jobs) {
    pages.train->settingsForm()->setChoice(tinyChoice(1, models));
    finished.clear();
    shown.clear();
    QVERIFY(pages.train->startTraining());
    QVERIFY(finished.wait(kTrainingTimeoutMs));
    const QString run = pages.train->currentRun();
    QVERIFY(!shown.isEmpty() || shown.wait(kTrainingTimeoutMs));
    QVERIFY2(shown.last().at(0).toBool(), qPrintable(pages.forecast->messageBar()->text()));
    QVERIFY(pages.forecast->forecastSet());
    QCOMPARE(QFileInfo(pages.forecast->forecastSet()->runDir).canonicalFilePath(), QFileInfo(run).canonicalFilePath());
    QCOMPARE(int(pages.forecast->forecastSet()->models.size()), int(models.size()));
  }
  waitUntilIdle(pages);
}

// Trained on a channel that never changes, the models finish with a warning that names it.
void TestTrainPage::aConstantChannelIsAWarning() {
  QFile file(folder_.filePath(QStringLiteral("constant.csv")));
  QVERIFY(file.open(QIODevice::WriteOnly));
  QByteArray csv("date,load,station\n");
  for (int day = 0; day < 240; ++day)
    csv += QDate(2020, 1, 1).addDays(day).toString(Qt::ISODate).toLatin1() + ',' +
           QByteArray::number(10 + (day * 7) % 13) + ",42\n";
  file.write(csv);
  file.close();
  CurrentDataset dataset;
  loadInto(dataset, file.fileName());
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-constant")));
  page.settingsForm()->setChoice(tinyChoice(1, {aaren::ModelKind::aaren, aaren::ModelKind::transformer}));
  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QCOMPARE(finished.first().at(2).toString(), QString());
  QCOMPARE(page.messageBar()->level(), MessageBar::Level::warning);
  QVERIFY2(page.messageBar()->text().startsWith(QStringLiteral("Training finished")), qPrintable(page.messageBar()->text()));
  const QStringList warnings = page.messageBar()->details().filter(QStringLiteral("'station' is constant"));
  QCOMPARE(warnings.size(), 1);  // said once, not once per model
  QVERIFY2(warnings.first().startsWith(QStringLiteral("Warning: channel 'station' is constant over the training rows")),
           qPrintable(warnings.first()));
  QVERIFY(page.messageBar()->details().filter(QStringLiteral("'load' is constant")).isEmpty());
}

void TestTrainPage::timeLeftCoversTheWholeJob_data() {
  QTest::addColumn<int>("model");
  QTest::addColumn<int>("models");
  QTest::addColumn<QString>("left");
  QTest::addColumn<int>("fold");
  QTest::addColumn<int>("folds");
  QTest::addColumn<QString>("phase");
  // Epoch 1 of 2, step 5 of 10: 15 steps of this training left, estimated at 15 s (1 s a step).
  QTest::newRow("the first of two") << 0 << 2 << QStringLiteral("35 s left for all 2 models") << 0 << 0
                                    << QString();  // + 20 steps
  QTest::newRow("the second of two") << 1 << 2 << QStringLiteral("15 s left for all 2 models") << 0 << 0 << QString();
  QTest::newRow("one model") << 0 << 1 << QStringLiteral("15 s left") << 0 << 0 << QString();
  // Cross-validation: fold 2 of 5, then folds 3 to 5 and the last training at 20 s each.
  QTest::newRow("a fold") << 0 << 1 << QStringLiteral("1 min 35 s left") << 2 << 5
                          << QStringLiteral("Aaren · choosing the epochs: fold 2 of 5 · epoch 1 of 2");
  QTest::newRow("a fold, then a model") << 0 << 2 << QStringLiteral("3 min 35 s left for all 2 models") << 2 << 5
                                        << QStringLiteral(" · choosing the epochs: fold 2 of 5");
  QTest::newRow("the last training") << 1 << 2 << QStringLiteral("15 s left for all 2 models") << 6 << 5
                                     << QStringLiteral("Transformer (2 of 2) · on every training case · epoch 1");
}

void TestTrainPage::timeLeftCoversTheWholeJob() {
  QFETCH(int, model);
  QFETCH(int, models);
  QFETCH(QString, left);
  QFETCH(int, fold);
  QFETCH(int, folds);
  QFETCH(QString, phase);
  TrainingProgress report;
  report.progress.fold = fold;
  report.progress.folds = folds;
  report.model = model;
  report.models = models;
  report.modelName = model == 0 ? QStringLiteral("Aaren") : QStringLiteral("Transformer");
  report.progress.epoch = 1;
  report.progress.epochs = 2;
  report.progress.step = 5;
  report.progress.steps_per_epoch = 10;
  report.progress.samples_per_second = 16;
  report.progress.eta_seconds = 15;
  const QString text = describeProgress(report);
  QVERIFY2(text.endsWith(QStringLiteral(" · ") + left), qPrintable(text));
  QVERIFY2(text.contains(phase) && text.contains(QStringLiteral("fold")) == (fold > 0 && fold <= folds), qPrintable(text));
  // The bar: a fold is one of folds + 1 trainings of the model.
  const double trained = 0.25;  // epoch 1 of 2, step 5 of 10
  QCOMPARE(modelFractionDone(report.progress), folds > 0 ? (fold - 1 + trained) / (folds + 1) : trained);
}

// At an epoch's end the line gives the validation loss and, where something else chooses the epoch
// kept (a Decision Transformer's score acting), that too.
void TestTrainPage::anEpochsEndNamesWhatChoosesTheEpoch() {
  TrainingProgress report;
  report.modelName = QStringLiteral("Aaren");
  report.progress.epoch = report.progress.epochs = 3;
  report.progress.step = report.progress.steps_per_epoch = 10;
  report.progress.epoch_end = true;
  report.progress.val_loss = 0.41234;
  QVERIFY2(describeProgress(report).endsWith(QStringLiteral(" · validation loss 0.4123")),
           qPrintable(describeProgress(report)));
  report.progress.val_score = 97.254;
  report.progress.val_score_name = "selection score";
  QVERIFY2(describeProgress(report).endsWith(QStringLiteral(" · validation loss 0.4123 · selection score 97.25")),
           qPrintable(describeProgress(report)));
}

// The Features choice, picked as a user picks it, reaches the run folder (MS: every channel in, the
// Data page's target forecast), and the page's settings remember it.
void TestTrainPage::featuresChoiceReachesTheRunAndIsRemembered() {
  CurrentDataset dataset;
  aaren::CsvReadOptions options;
  options.target = "temperature";
  dataset.setData(csv_, options,
                  std::make_shared<const aaren::TimeSeriesTable>(aaren::read_time_series_csv(csv_.toStdString(), options)));
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-features")));
  page.settingsForm()->setChoice(tinyChoice(1, {aaren::ModelKind::aaren}));
  auto* features = page.settingsForm()->findChild<QComboBox*>(QStringLiteral("featuresCombo"));
  QVERIFY(features);
  QCOMPARE(features->currentData().toString(), QStringLiteral("M"));
  auto* target = page.settingsForm()->findChild<QLabel*>(QStringLiteral("featuresTarget"));
  QVERIFY(target);
  QVERIFY2(target->text().contains(QStringLiteral("temperature")), qPrintable(target->text()));
  features->setCurrentIndex(features->findData(QStringLiteral("MS")));
  QCOMPARE(page.settingsForm()->choice().features, aaren::ForecastFeatures::MS);
  // MS models train on the CPU only: the device combo offers no GPU for them.
  auto* device = page.settingsForm()->findChild<QComboBox*>(QStringLiteral("deviceCombo"));
  QVERIFY(device);
  QCOMPARE(device->currentIndex(), 0);

  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QCOMPARE(finished.last().at(2).toString(), QString());
  const aaren::LoadedForecastRun run = aaren::load_forecast_run(page.currentRun().toStdString());
  QCOMPARE(run.config.features, aaren::ForecastFeatures::MS);
  QCOMPARE(run.config.target, std::string("temperature"));
  QCOMPARE(run.config.model.channels, 2);
  QCOMPARE(run.config.model.target_channel, 1);
  QCOMPARE(run.metrics.test.channel_mse.size(), std::size_t(1));

  Settings saved(folder_.filePath(QStringLiteral("features.ini")));
  page.saveSession(saved);
  TrainPage restored(&dataset);
  QCOMPARE(restored.settingsForm()->choice().features, aaren::ForecastFeatures::M);
  restored.restoreSession(saved);
  QCOMPARE(restored.settingsForm()->choice().features, aaren::ForecastFeatures::MS);
  QCOMPARE(restored.settingsForm()->findChild<QComboBox*>(QStringLiteral("featuresCombo"))->currentData().toString(),
           QStringLiteral("MS"));
}

void TestTrainPage::featuresOfTheTargetNeedOne() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);  // no target chosen
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-features-no-target")));
  TrainingChoice choice = tinyChoice(1, {aaren::ModelKind::aaren});
  choice.features = aaren::ForecastFeatures::S;
  page.settingsForm()->setChoice(choice);
  auto* target = page.settingsForm()->findChild<QLabel*>(QStringLiteral("featuresTarget"));
  QVERIFY2(target->text().startsWith(QStringLiteral("No target")), qPrintable(target->text()));
  QVERIFY(!page.startTraining());
  QVERIFY(!page.isTraining());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("Features S forecast the target: choose one on the Data page")),
           qPrintable(page.messageBar()->text()));
}


// The three boxes under Model: any of them, the three trained one after the other into one run,
// each curve in its family's colour, the ticks remembered; none ticked is refused with a reason.
void TestTrainPage::anyOfTheThreeModelsTrainsSideBySide() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-three")));
  page.settingsForm()->setChoice(tinyChoice(1, {aaren::ModelKind::aaren, aaren::ModelKind::transformer}));
  QCheckBox* boxes[std::size(aaren::kModelKinds)] = {};
  for (std::size_t i = 0; i < std::size(boxes); ++i) {
    const std::string_view name = aaren::to_string(aaren::kModelKinds[i]);
    boxes[i] = page.settingsForm()->findChild<QCheckBox*>(QStringLiteral("model-") +
                                                          QString::fromLatin1(name.data(), qsizetype(name.size())));
    QVERIFY2(boxes[i], name.data());
  }
  QVERIFY(boxes[0]->isChecked() && boxes[1]->isChecked() && !boxes[2]->isChecked());

  for (QCheckBox* box : boxes) box->setChecked(false);
  QVERIFY(page.settingsForm()->choice().models.empty());
  QVERIFY(!page.startTraining());
  QVERIFY2(page.messageBar()->text().contains(QStringLiteral("at least one model")), qPrintable(page.messageBar()->text()));

  QSignalSpy edited(page.settingsForm(), &ModelSettingsForm::edited);
  for (QCheckBox* box : boxes) box->setChecked(true);
  QCOMPARE(edited.count(), 3);
  const std::vector<aaren::ModelKind> all(std::begin(aaren::kModelKinds), std::end(aaren::kModelKinds));
  QVERIFY(page.settingsForm()->choice().models == all);

  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QVERIFY(page.startTraining());
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QCOMPARE(finished.last().at(2).toString(), QString());
  const QString run = page.currentRun();
  QVERIFY2(run.endsWith(QStringLiteral("-all")), qPrintable(run));
  for (const aaren::ModelKind kind : all) {
    const QString dir = QDir(run).filePath(QString::fromLatin1(aaren::to_string(kind).data()));
    QVERIFY2(hasRunFiles(dir), qPrintable(dir));
    QCOMPARE(aaren::load_forecast_run(dir.toStdString()).config.model.kind, kind);
  }
  const QList<QXYSeries*> series = page.lossChart()->dataSeries();
  QCOMPARE(series.size(), 6);
  for (std::size_t i = 0; i < all.size(); ++i) {
    QCOMPARE(series[int(2 * i)]->name(), displayName(all[i]) + QStringLiteral(" training"));
    QCOMPARE(series[int(2 * i)]->color(), modelColor(all[i]));
    QCOMPARE(series[int(2 * i + 1)]->color(), modelValidationColor(all[i]));
  }

  Settings saved(folder_.filePath(QStringLiteral("three.ini")));
  page.saveSession(saved);
  TrainPage restored(&dataset);
  QCOMPARE(restored.settingsForm()->choice().models.size(), std::size_t(2));
  restored.restoreSession(saved);
  QVERIFY(restored.settingsForm()->choice().models == all);
}

void TestTrainPage::modelsLabelNamesTheRunFolder_data() {
  using aaren::ModelKind;
  QTest::addColumn<std::vector<ModelKind>>("models");
  QTest::addColumn<QString>("label");
  QTest::newRow("aaren") << std::vector<ModelKind>{ModelKind::aaren} << "aaren";
  QTest::newRow("linear") << std::vector<ModelKind>{ModelKind::linear} << "linear";
  QTest::newRow("the paper's two") << std::vector<ModelKind>{ModelKind::aaren, ModelKind::transformer} << "both";
  QTest::newRow("aaren and linear") << std::vector<ModelKind>{ModelKind::aaren, ModelKind::linear} << "aaren-linear";
  QTest::newRow("all three") << std::vector<ModelKind>{ModelKind::aaren, ModelKind::transformer, ModelKind::linear}
                             << "all";
}

void TestTrainPage::modelsLabelNamesTheRunFolder() {
  QFETCH(std::vector<aaren::ModelKind>, models);
  QFETCH(QString, label);
  QCOMPARE(ModelSettingsForm::modelsLabel(models), label);
}

QTEST_MAIN(TestTrainPage)
#include "tst_train_page.moc"
