// A restart: the main window with its real pages saves, when it closes, the loaded data set with how
// it was read (file, kind, delimiter, header, date column, decimal mark, channels, target, gaps,
// split), the Train page's form (models, architecture, window, training settings, device) and the
// Explore page's inputs; a new window brings every one of them back. A file opened on the command
// line wins over the remembered one, and a remembered data set that has moved away is said once,
// quietly, in the message bar.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QMessageBox>
#include <functional>
#include <memory>

#include "gpu/device_info.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/current_dataset.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/message_bar.hpp"
#include "ui/pages/model_settings_form.hpp"
#include "ui/pages/studio_pages.hpp"
#include "ui/pages/train_page.hpp"

using namespace aaren::ui;

namespace {

constexpr int kLoadTimeoutMs = 60000;

// The window as aaren-studio builds it, with the pages whose choices are remembered.
struct Studio {
  Studio() : window(std::make_unique<MainWindow>()), pages(addStudioPages(*window)), explore(new ExplorePage) {
    window->addPage(explore);
    window->show();  // closing a window that was never shown would not save anything
  }
  std::unique_ptr<MainWindow> window;
  StudioPages pages;
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

}  // namespace

class TestSession : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void everyChoiceComesBackAfterARestart();
  void fileOpenedAtStartWinsOverTheRememberedOne();
  void movedDataSetIsSaidOnceQuietly();

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
  training.device = cudaUsable ? TrainingDevice::cuda : TrainingDevice::cpu;
  {
    Studio studio;
    DataPage& data = *studio.pages.data;
    QComboBox* readAs = data.readAsCombo();
    readAs->setCurrentIndex(readAs->findData(int(ImportKind::timeSeries)));
    emit readAs->activated(readAs->currentIndex());
    QVERIFY(!loadWith(data, [&] { data.openCsv(csv); }));  // the gap on line 10
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
  QCOMPARE(restored.train.epochs, 3);
  QCOMPARE(restored.train.batch, 5);
  QCOMPARE(restored.train.lr, 0.004);
  QCOMPARE(restored.train.patience, 2);
  QCOMPARE(restored.train.seed, 77u);
  QCOMPARE(restored.device, training.device);

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
    QVERIFY(loadWith(data, [&] { data.openCsv(coal); }));
    QVERIFY(studio.pages.dataset->isEventLog());
    QVERIFY(studio.window->close());
  }
  Studio studio;
  DataPage& data = *studio.pages.data;
  QCOMPARE(data.readAsCombo()->currentData().toInt(), int(ImportKind::eventLog));  // restoring coal
  QSignalSpy finished(&data, &DataPage::loadFinished);
  studio.window->openCsv(airline);  // as --open does, before the event loop runs
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
    QVERIFY(loadWith(data, [&] { data.openCsv(before); }));
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

QTEST_MAIN(TestSession)
#include "tst_session.moc"
