// A restart: the main window with its real pages saves, when it closes, the loaded data set with how
// it was read (file, kind, delimiter, header, date column, decimal mark, channels, target, gaps,
// split; an event log's columns and decimal mark), the Train page's form (models, architecture,
// window, training settings, device), the Efficiency page's controls (model size, tokens, repeats,
// device) and the Explore page's inputs; a new window brings every one of them back. They are saved
// as they change too, so a window that never closes (a crash) loses nothing. A file opened on the
// command line wins over the remembered one, and a remembered data set that has moved away is said
// once, quietly, in the message bar. Closing while a model trains keeps the window responsive while
// the run folder is written, then closes it and saves the session.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QMessageBox>
#include <functional>
#include <memory>

#include "core/forecast/forecast_run_folder.hpp"
#include "gpu/device_info.hpp"
#include "support/question_answerer.hpp"
#include "ui/events/events_view.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"
#include "ui/state/current_dataset.hpp"
#include "ui/state/efficiency_choice.hpp"
#include "ui/state/remembered_dataset.hpp"
#include "ui/state/training_choice.hpp"

using namespace aaren::ui;

namespace {

constexpr int kLoadTimeoutMs = 60000;

// The window as aaren-studio builds it, with the pages whose choices are remembered.
struct Studio {
  Studio()
      : window(std::make_unique<MainWindow>()),
        pages(addStudioPages(*window)),
        efficiency(new EfficiencyPage),
        explore(new ExplorePage) {
    window->addPage(efficiency);
    window->addPage(explore);
    window->show();  // closing a window that was never shown would not save anything
  }
  std::unique_ptr<MainWindow> window;
  StudioPages pages;
  EfficiencyPage* efficiency;
  ExplorePage* explore;
};

// Waits for the read the window started (restoring the last session), if any; true unless it failed.
bool settle(DataPage& page) {
  QSignalSpy finished(&page, &DataPage::loadFinished);
  if (page.isLoading() && !finished.wait(kLoadTimeoutMs)) return false;
  return finished.isEmpty() || finished.last().first().toBool();
}

bool loadWith(DataPage& page, const std::function<void()>& change) {
  QSignalSpy finished(&page, &DataPage::loadFinished);
  change();
  if (finished.isEmpty() && !finished.wait(kLoadTimeoutMs)) return false;
  return finished.last().first().toBool();
}

QString writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(bytes);
  return QFileInfo(path).absoluteFilePath();
}

// Daily levels, separated by semicolons; with a gap, one empty cell (line 10) needs interpolation.
QByteArray levels(bool gap) {
  QByteArray content("day;north;south;east\n");
  for (int row = 0; row < 200; ++row) {
    const QByteArray day = QDate(2022, 1, 1).addDays(row).toString(Qt::ISODate).toLatin1();
    const QByteArray south = gap && row + 2 == 10 ? QByteArray() : QByteArray::number(20 + row % 7) + ".5";
    content += day + ';' + QByteArray::number(10 + row % 5) + ".25;" + south + ';' + QByteArray::number(row) + '\n';
  }
  return content;
}

QComboBox* combo(const QWidget& parent, const char* name) { return parent.findChild<QComboBox*>(QLatin1String(name)); }

// Times 1, 2, ... with sizes "1,250", "2,250", ...: a decimal comma or thousands, the reader cannot tell.
QByteArray unclearLog(int events) {
  QByteArray content("time;size\n");
  for (int i = 1; i <= events; ++i) content += QByteArray::number(i) + ';' + QByteArray::number(i) + ",250\n";
  return content;
}

void readAs(DataPage& page, ImportKind kind) {
  QComboBox* readAs = page.readAsCombo();
  readAs->setCurrentIndex(readAs->findData(int(kind)));
  emit readAs->activated(readAs->currentIndex());
}

EfficiencyChoice efficiencyChoice(bool cuda) {
  EfficiencyChoice choice;
  choice.model.d_model = 48;
  choice.model.heads = 6;
  choice.model.layers = 2;
  choice.model.d_ff = 96;
  choice.tokens = 4096;
  choice.repeats = 3;
  choice.device = cuda ? aaren::ComputeDevice::cuda : aaren::ComputeDevice::cpu;
  return choice;
}

void verifyEfficiency(const EfficiencyChoice& shown, const EfficiencyChoice& wanted) {
  QCOMPARE(shown.model.d_model, wanted.model.d_model);
  QCOMPARE(shown.model.heads, wanted.model.heads);
  QCOMPARE(shown.model.layers, wanted.model.layers);
  QCOMPARE(shown.model.d_ff, wanted.model.d_ff);
  QCOMPARE(shown.tokens, wanted.tokens);
  QCOMPARE(shown.repeats, wanted.repeats);
  QCOMPARE(shown.device, wanted.device);
}

}  // namespace

class TestSession : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void everyChoiceComesBackAfterARestart();
  void eventLogDecimalMarkComesBack();
  void choicesAreSavedAsTheyChange();
  void fileOpenedAtStartWinsOverTheRememberedOne();
  void movedDataSetIsSaidOnceQuietly();
  void closingDuringTrainingWritesTheRunThenSaves();

 private:
  QTemporaryDir folder_;
};

void TestSession::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(folder_.isValid());
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, folder_.filePath(QStringLiteral("settings")));
}

void TestSession::init() { QSettings(QStringLiteral("AarenStudio"), QStringLiteral("Aaren Studio")).clear(); }

void TestSession::everyChoiceComesBackAfterARestart() {
  const QString csv = writeFile(folder_.filePath(QStringLiteral("levels.csv")), levels(true));
  const bool cudaUsable = aaren::gpu::query_device().available;
  TrainingChoice training;
  training.models = {aaren::ModelKind::transformer};
  training.model.d_model = 24;
  training.model.heads = 3;
  training.model.layers = 2;
  training.model.d_ff = 40;
  training.model.seq_len = 16;
  training.model.horizon = 8;
  training.train.epochs = 3;
  training.train.batch = 5;
  training.train.lr = 0.004;
  training.train.patience = 2;
  training.train.seed = 77;
  training.device = cudaUsable ? aaren::ComputeDevice::cuda : aaren::ComputeDevice::cpu;
  training.members = 4;
  training.augmentation = {.slice = true, .jitter = true};
  training.cvFolds = 10;
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QComboBox* readAs = data.readAsCombo();
    readAs->setCurrentIndex(readAs->findData(int(ImportKind::timeSeries)));
    emit readAs->activated(readAs->currentIndex());
    QVERIFY(!loadWith(data, [&] { data.openDataFile(csv); }));  // the gap on line 10
    QVERIFY(loadWith(data, [&] { data.findChild<QCheckBox*>(QStringLiteral("interpolateCheck"))->setChecked(true); }));
    QVERIFY(loadWith(data, [&] { combo(data, "dateColumnCombo")->setCurrentIndex(0); }));  // none
    QVERIFY(loadWith(data, [&] {
      QComboBox* mark = combo(data, "decimalMarkCombo");
      mark->setCurrentIndex(mark->findData(QStringLiteral(".")));
    }));
    QVERIFY(loadWith(data, [&] {
      auto* channels = data.findChild<QListWidget*>(QStringLiteral("channelList"));
      channels->findItems(QStringLiteral("east"), Qt::MatchExactly).first()->setCheckState(Qt::Unchecked);
    }));
    QVERIFY(loadWith(data, [&] {
      QComboBox* target = combo(data, "targetCombo");
      target->setCurrentIndex(target->findData(QStringLiteral("south")));
    }));
    QComboBox* split = combo(data, "splitCombo");
    split->setCurrentIndex(split->findText(QStringLiteral("60/20/20")));
    QCOMPARE(studio.pages.dataset->table()->values.cols, 2);

    studio.pages.train->settingsForm()->setChoice(training);
    studio.efficiency->setChoice(efficiencyChoice(cudaUsable));
    studio.explore->inputPanel().setRandom(11, 2, 42, 3.5);
    studio.explore->inputPanel().setTyped(QStringLiteral("1, 2, 3"), QStringLiteral("0.5; 1; -1"));
    QVERIFY(studio.window->close());
  }

  Studio studio;
  DataPage& data = *studio.pages.data;
  QVERIFY(settle(data));
  const CurrentDataset& dataset = *studio.pages.dataset;
  QVERIFY(dataset.table());
  QCOMPARE(dataset.path(), csv);
  QCOMPARE(data.filePath(), csv);
  QCOMPARE(dataset.table()->values.cols, 2);
  QCOMPARE(dataset.table()->values.rows, 200);
  QCOMPARE(dataset.readOptions().delimiter.value_or('?'), ';');
  QCOMPARE(dataset.readOptions().date_column.value_or("?"), std::string());
  QCOMPARE(dataset.readOptions().decimal_mark.value_or('?'), '.');
  QCOMPARE(dataset.readOptions().target, std::string("south"));
  QVERIFY(dataset.readOptions().missing == aaren::CsvReadOptions::Missing::interpolate);
  QCOMPARE(dataset.split().fractions.train, 0.6);

  QCOMPARE(data.readAsCombo()->currentData().toInt(), int(ImportKind::timeSeries));
  QCOMPARE(combo(data, "delimiterCombo")->currentData().toString(), QStringLiteral(";"));
  QVERIFY(data.findChild<QCheckBox*>(QStringLiteral("headerCheck"))->isChecked());
  QCOMPARE(combo(data, "dateColumnCombo")->currentIndex(), 0);
  QCOMPARE(combo(data, "decimalMarkCombo")->currentData().toString(), QStringLiteral("."));
  QCOMPARE(data.checkedChannels(), (QStringList{"north", "south"}));
  QCOMPARE(combo(data, "targetCombo")->currentData().toString(), QStringLiteral("south"));
  QVERIFY(data.findChild<QCheckBox*>(QStringLiteral("interpolateCheck"))->isChecked());
  QCOMPARE(combo(data, "splitCombo")->currentText(), QStringLiteral("60/20/20"));

  const TrainingChoice restored = studio.pages.train->settingsForm()->choice();
  QCOMPARE(restored.models, training.models);
  QCOMPARE(restored.model.d_model, 24);
  QCOMPARE(restored.model.heads, 3);
  QCOMPARE(restored.model.layers, 2);
  QCOMPARE(restored.model.d_ff, 40);
  QCOMPARE(restored.model.seq_len, 16);
  QCOMPARE(restored.model.horizon, 8);
  QCOMPARE(restored.members, 4);
  QVERIFY(restored.augmentation == training.augmentation);
  QCOMPARE(restored.cvFolds, 10);
  QCOMPARE(restored.train.epochs, 3);
  QCOMPARE(restored.train.batch, 5);
  QCOMPARE(restored.train.lr, 0.004);
  QCOMPARE(restored.train.patience, 2);
  QCOMPARE(restored.train.seed, 77u);
  QCOMPARE(restored.device, training.device);

  verifyEfficiency(studio.efficiency->choice(), efficiencyChoice(cudaUsable));
  QCOMPARE(bool(studio.efficiency->options().stepper), cudaUsable);

  const ExploreInputChoices inputs = studio.explore->inputPanel().choices();
  QCOMPARE(inputs.source, InputSource::typed);
  QCOMPARE(inputs.scores, QStringLiteral("1, 2, 3"));
  QCOMPARE(inputs.values, QStringLiteral("0.5; 1; -1"));
  QCOMPARE(inputs.tokens, 11);
  QCOMPARE(inputs.dv, 2);
  QCOMPARE(inputs.seed, 42);
  QCOMPARE(inputs.scoreShift, 3.5);
  QCOMPARE(studio.explore->inputPanel().inputs().tokens(), 3);  // the typed numbers are in use
}

// A log whose decimal mark had to be chosen is read again with it, the control showing the choice.
void TestSession::eventLogDecimalMarkComesBack() {
  const QString log = writeFile(folder_.filePath(QStringLiteral("unclear_sizes.csv")), unclearLog(20));
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    readAs(data, ImportKind::eventLog);
    QVERIFY(!loadWith(data, [&] { data.openDataFile(log); }));  // asks which mark
    QVERIFY2(data.messageBar()->text().contains(QStringLiteral("Decimal mark")), qPrintable(data.messageBar()->text()));
    QVERIFY(loadWith(data, [&] {
      QComboBox* mark = combo(data, "eventDecimalMarkCombo");
      mark->setCurrentIndex(mark->findData(QStringLiteral(",")));
    }));
    QVERIFY(studio.window->close());
  }
  Studio studio;
  DataPage& data = *studio.pages.data;
  QVERIFY2(settle(data), qPrintable(data.messageBar()->text()));
  const CurrentDataset& dataset = *studio.pages.dataset;
  QVERIFY(dataset.kind() == aaren::LoadedData::event_log);
  QCOMPARE(dataset.path(), log);
  QCOMPARE(dataset.eventLogOptions().decimal_mark.value_or('?'), ',');
  QCOMPARE(dataset.eventLog()->decimal_mark, ',');
  QCOMPARE(dataset.eventLog()->sequences.front().features.back(), 20.25);
  QCOMPARE(combo(data, "eventDecimalMarkCombo")->currentData().toString(), QStringLiteral(","));
  QVERIFY(data.messageBar()->isHidden() || data.messageBar()->level() != MessageBar::Level::error);
}

// Loading a file and editing a form save them shortly after, without waiting for the window to
// close: a window that is never closed (as in a crash) is restored from what it saved as it went.
void TestSession::choicesAreSavedAsTheyChange() {
  const QString csv = writeFile(folder_.filePath(QStringLiteral("saved_early.csv")), levels(false));
  TrainingChoice training;
  training.models = {aaren::ModelKind::aaren};
  training.model.d_model = 40;
  training.model.heads = 5;
  training.model.seq_len = 21;
  training.train.epochs = 6;
  const EfficiencyChoice efficiency = efficiencyChoice(false);
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QVERIFY(loadWith(data, [&] { data.openDataFile(csv); }));
    studio.pages.train->settingsForm()->setChoice(training);
    studio.efficiency->setChoice(efficiency);
    QSignalSpy saved(studio.window.get(), &MainWindow::sessionSaved);
    QVERIFY(saved.wait());

    const Settings fresh;
    const std::optional<RememberedDataset> dataset = loadLastDataset(fresh);
    QVERIFY(dataset);
    QCOMPARE(dataset->path, csv);
    const std::optional<TrainingChoice> choice = loadTrainingChoice(fresh);
    QVERIFY(choice);
    QCOMPARE(choice->models, training.models);
    QCOMPARE(choice->model.d_model, 40);
    QCOMPARE(choice->model.heads, 5);
    QCOMPARE(choice->model.seq_len, 21);
    QCOMPARE(choice->train.epochs, 6);
    const std::optional<EfficiencyChoice> measured = loadEfficiencyChoice(fresh);
    QVERIFY(measured);
    verifyEfficiency(*measured, efficiency);
    // On disk, not only in this process's cache of the settings.
    QFile file(QSettings(QStringLiteral("AarenStudio"), QStringLiteral("Aaren Studio")).fileName());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const QByteArray onDisk = file.readAll();
    QVERIFY2(onDisk.contains("saved_early.csv") && onDisk.contains("lookBack=21"), onDisk.constData());

    // A later edit is saved again.
    saved.clear();
    training.train.epochs = 9;
    studio.pages.train->settingsForm()->setChoice(training);
    QVERIFY(saved.wait());
    QCOMPARE(loadTrainingChoice(Settings())->train.epochs, 9);
    // The window goes without closing: nothing is saved at the end.
  }
  Studio studio;
  QVERIFY(settle(*studio.pages.data));
  QCOMPARE(studio.pages.dataset->path(), csv);
  QCOMPARE(studio.pages.train->settingsForm()->choice().model.d_model, 40);
  QCOMPARE(studio.pages.train->settingsForm()->choice().train.epochs, 9);
  verifyEfficiency(studio.efficiency->choice(), efficiency);
}

// aaren-studio --open FILE opens FILE right after the window restored the last session: FILE is
// what ends up loaded, read as detected, even though the remembered file was read as an event log.
void TestSession::fileOpenedAtStartWinsOverTheRememberedOne() {
  const QString coal = QFileInfo(QStringLiteral(AAREN_SOURCE_DIR "/datasets/coal_mining_disasters.csv")).absoluteFilePath();
  const QString airline = QFileInfo(QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_AirPassengers.csv")).absoluteFilePath();
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QComboBox* readAs = data.readAsCombo();
    readAs->setCurrentIndex(readAs->findData(int(ImportKind::eventLog)));
    emit readAs->activated(readAs->currentIndex());
    QVERIFY(loadWith(data, [&] { data.openDataFile(coal); }));
    QVERIFY(studio.pages.dataset->kind() == aaren::LoadedData::event_log);
    QVERIFY(studio.window->close());
  }
  Studio studio;
  DataPage& data = *studio.pages.data;
  QCOMPARE(data.readAsCombo()->currentData().toInt(), int(ImportKind::eventLog));  // restoring coal
  QSignalSpy finished(&data, &DataPage::loadFinished);
  studio.window->openDataFile(airline);  // as --open does, before the event loop runs
  QVERIFY(finished.wait(kLoadTimeoutMs));
  QCOMPARE(finished.count(), 1);
  QVERIFY(finished.first().first().toBool());
  // The remembered log's read was dropped: when it returns, it replaces nothing.
  QTRY_VERIFY_WITH_TIMEOUT(!data.isLoading(), kLoadTimeoutMs);
  QCOMPARE(finished.count(), 1);
  QCOMPARE(studio.pages.dataset->path(), airline);
  QVERIFY(studio.pages.dataset->table());
  QCOMPARE(studio.pages.dataset->table()->values.rows, 144);
  QCOMPARE(data.readAsCombo()->currentData().toInt(), int(ImportKind::automatic));
  QCOMPARE(studio.window->windowTitle(), QStringLiteral("R_AirPassengers.csv — Aaren Studio"));
}

void TestSession::movedDataSetIsSaidOnceQuietly() {
  const QString before = writeFile(folder_.filePath(QStringLiteral("moving.csv")), levels(false));
  const QString after = folder_.filePath(QStringLiteral("moved.csv"));
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QVERIFY(loadWith(data, [&] { data.openDataFile(before); }));
    QVERIFY(studio.window->close());
  }
  QVERIFY(QFile::rename(before, after));
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QVERIFY(!data.isLoading());
    QVERIFY(!studio.pages.dataset->isLoaded());
    QVERIFY(!data.messageBar()->isHidden());
    QCOMPARE(data.messageBar()->level(), MessageBar::Level::information);
    const QString message = data.messageBar()->text();
    QVERIFY2(message.contains(QStringLiteral("moving.csv")) && message.contains(QStringLiteral("no longer")),
             qPrintable(message));
    QVERIFY(studio.window->findChildren<QMessageBox*>().isEmpty());
    QVERIFY(studio.window->close());
  }
  Studio studio;
  QVERIFY(studio.pages.data->messageBar()->isHidden());
  QVERIFY(!studio.pages.dataset->isLoaded());
}

void TestSession::closingDuringTrainingWritesTheRunThenSaves() {
  const QString csv = writeFile(folder_.filePath(QStringLiteral("closing.csv")), levels(false));
  const QString runs = folder_.filePath(QStringLiteral("runs-closing"));
  TrainingChoice training;
  training.models = {aaren::ModelKind::aaren};
  training.model.d_model = 8;
  training.model.heads = 2;
  training.model.layers = 1;
  training.model.d_ff = 16;
  training.model.seq_len = 16;
  training.model.horizon = 8;
  training.train.epochs = 100000;  // stopped long before
  training.train.patience = 0;
  QString run;
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QVERIFY(loadWith(data, [&] { data.openDataFile(csv); }));
    TrainPage& train = *studio.pages.train;
    train.setRunsFolder(runs);
    train.settingsForm()->setChoice(training);
    QSignalSpy progress(&train, &TrainPage::trainingProgress);
    QVERIFY(train.startTraining());
    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), kLoadTimeoutMs);
    run = train.currentRun();

    answerNextQuestion(QMessageBox::AcceptRole);
    QVERIFY(!studio.window->close());  // back to the event loop while the run folder is written
    QVERIFY(studio.window->isVisible());
    QVERIFY(studio.pages.train->isTraining());
    QTRY_VERIFY_WITH_TIMEOUT(!studio.window->isVisible(), kLoadTimeoutMs);
    QVERIFY(!train.isTraining());
  }
  for (const char* name : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
    QVERIFY2(QFileInfo(QDir(run).filePath(QLatin1String(name))).isFile(), name);
  QCOMPARE(aaren::load_forecast_run(run.toStdString()).metrics.stop, std::string("cancelled"));

  Studio studio;  // the close that followed saved the session
  QVERIFY(settle(*studio.pages.data));
  QCOMPARE(QFileInfo(studio.pages.dataset->path()), QFileInfo(csv));
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"
