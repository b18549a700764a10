// The Train page: both models train for an epoch on a tiny data set without blocking the window,
// their losses reach the chart and their run folders hold the four files; pause holds training
// while the window stays responsive, resume continues, stop keeps a loadable model; closing the
// window during training asks, and when told to, stops with a loadable model on disk.
#include <QtTest>

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QXYSeries>
#include <cmath>
#include <functional>

#include "core/data/time_series_csv.hpp"
#include "core/model/forecast_model.hpp"
#include "core/train/run_folder.hpp"
#include "ui/chart_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/run_list_view.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"

using namespace aaren::ui;

namespace {

constexpr int kTrainingTimeoutMs = 300000;

// Two daily channels with a weekly and a monthly rhythm: enough structure to learn, no noise.
QString writeSeries(const QString& path, int rows) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  QTextStream out(&file);
  out << "date,load,temperature\n";
  const QDate first(2020, 1, 1);
  for (int t = 0; t < rows; ++t)
    out << first.addDays(t).toString(Qt::ISODate) << ',' << 10 + 3 * std::sin(2 * M_PI * t / 7.0) + 0.01 * t << ','
        << 20 + 5 * std::cos(2 * M_PI * t / 30.0) << '\n';
  return path;
}

void loadInto(CurrentDataset& dataset, const QString& path) {
  aaren::CsvReadOptions options;
  dataset.setData(path, options,
                  std::make_shared<const aaren::TimeSeriesTable>(aaren::read_time_series_csv(path.toStdString(), options)));
}

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

// Answers the next question box with the button whose role is `role`.
void answerNextQuestion(QMessageBox::ButtonRole role) {
  auto* poll = new QTimer;
  QObject::connect(poll, &QTimer::timeout, poll, [poll, role] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    for (QAbstractButton* button : box->buttons())
      if (box->buttonRole(button) == role) {
        poll->deleteLater();
        button->click();
        return;
      }
  });
  poll->start(10);
}

}  // namespace

class TestTrainPage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void bothModelsTrainWithoutBlockingTheWindow();
  void pauseHoldsResumeContinuesStopKeepsTheModel();
  void startWithoutDataExplainsWhy();
  void closingDuringTrainingAsksThenKeepsALoadableModel();
  void continueStartsFromTheRunsWeights();
  void continueNeedsARunAndTheSameChannels();

 private:
  QTemporaryDir folder_;
  QString csv_;
};

void TestTrainPage::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  // The window saves its pages' choices when it closes: into this test's folder, not a shared one.
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, folder_.filePath(QStringLiteral("settings")));
  csv_ = writeSeries(folder_.filePath(QStringLiteral("tiny.csv")), 240);
}

void TestTrainPage::bothModelsTrainWithoutBlockingTheWindow() {
  CurrentDataset dataset;
  loadInto(dataset, csv_);
  TrainPage page(&dataset);
  page.setRunsFolder(folder_.filePath(QStringLiteral("runs-both")));
  page.settingsForm()->setChoice(tinyChoice(1, {aaren::ModelKind::aaren, aaren::ModelKind::transformer}));

  QSignalSpy finished(&page, &TrainPage::trainingFinished);
  QSignalSpy progress(&page, &TrainPage::trainingProgress);
  int ticks = 0;
  QTimer ticker;
  ticker.setInterval(0);
  connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
  ticker.start();

  QVERIFY(page.startTraining());
  // Start returns at once: the work happens on the worker thread.
  QVERIFY(page.isTraining());
  QCOMPARE(finished.count(), 0);
  QVERIFY(finished.wait(kTrainingTimeoutMs));
  QVERIFY2(ticks > 0, "the event loop delivered no timer event while training");
  QVERIFY(!page.isTraining());
  QCOMPARE(finished.first().at(1).toBool(), false);
  QCOMPARE(finished.first().at(2).toString(), QString());
  QVERIFY(progress.count() >= 4);  // at least a step and an epoch's end for each model

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
    const aaren::LoadedRun loaded = aaren::load_run(dir.toStdString());
    QCOMPARE(std::string(aaren::to_string(loaded.config.model.kind)), std::string(model));
    QCOMPARE(loaded.config.model.d_model, 8);
    QCOMPARE(loaded.config.train.seed, 1u);
    QCOMPARE(int(loaded.metrics.epochs.size()), 1);
    QVERIFY(loaded.metrics.test.windows > 0);
  }

  // The run list shows the new run with both models and their metrics.
  const QList<RunInfo>& runs = page.runList()->runs();
  QCOMPARE(runs.size(), 1);
  QCOMPARE(runs.first().dir, QDir(run).absolutePath());
  QVERIFY(runs.first().sideBySide);
  QCOMPARE(runs.first().models.size(), 2);
  QVERIFY(runs.first().models.first().run.has_metrics);
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
  const aaren::LoadedRun loaded = aaren::load_run(page.currentRun().toStdString());
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

  answerNextQuestion(QMessageBox::AcceptRole);
  QVERIFY(window.close());
  const QString dir = QDir(train->currentRun()).filePath(QStringLiteral("aaren"));
  QVERIFY2(hasRunFiles(dir), qPrintable(dir));
  const aaren::LoadedRun loaded = aaren::load_run(dir.toStdString());
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

  const aaren::LoadedRun earlier = aaren::load_run(first.toStdString());
  const aaren::LoadedRun continued = aaren::load_run(second.toStdString());
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
}

QTEST_MAIN(TestTrainPage)
#include "tst_train_page.moc"
