// Settings: every value survives a round trip through an INI file, the last session's data set
// (an event log's decimal mark included), training choice, Efficiency controls and Explore inputs included (an unset choice stays unset, unreadable values give
// the defaults); the recent files list keeps the latest first, each file once, at most ten, and
// forgets files that no longer exist.
#include <QtTest>

#include "ui/recent_files.hpp"
#include "ui/explore/explore_inputs.hpp"
#include "ui/settings.hpp"
#include "ui/state/efficiency_choice.hpp"
#include "ui/state/remembered_dataset.hpp"
#include "ui/state/training_choice.hpp"

using namespace aaren::ui;

class TestSettings : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { folder_ = std::make_unique<QTemporaryDir>(); }

  void everySettingRoundTrips();
  void unsetOrUnreadableValuesGiveDefaults();
  void lastDataSetRoundTrips_data();
  void lastDataSetRoundTrips();
  void trainingChoiceRoundTrips();
  void efficiencyChoiceRoundTrips_data();
  void efficiencyChoiceRoundTrips();
  void exploreInputsRoundTrip();
  void unsetSessionChoicesAreNone();
  void recentFilesPutTheLatestFirstWithoutDuplicates();
  void recentFilesKeepAtMostTen();
  void recentFilesDropMissingFiles();
  void clearingRecentFilesEmptiesTheList();

 private:
  QString iniPath() const { return folder_->filePath(QStringLiteral("settings.ini")); }
  QString touch(const QString& name) const {
    const QString path = folder_->filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot create %s", qPrintable(path));
    file.write("x,y\n1,2\n");
    return path;
  }

  std::unique_ptr<QTemporaryDir> folder_;
};

void TestSettings::everySettingRoundTrips() {
  const QByteArray geometry("geometry\x01\x02", 10);
  const QByteArray state("state\x00\xff", 7);
  const QString exportDir = folder_->path();
  const QString packDir = QDir(folder_->path()).filePath(QStringLiteral("pack"));
  QVERIFY(QDir().mkpath(packDir));
  const QString csv = touch(QStringLiteral("prices.csv"));
  {
    Settings settings(iniPath());
    settings.setWindowGeometry(geometry);
    settings.setWindowState(state);
    settings.setTheme(Theme::dark);
    settings.setPresenterFontScale(2.25);
    settings.setLastPage(QStringLiteral("forecast"));
    settings.setLastDirectory(DirectoryPurpose::openDataFile, folder_->path());
    settings.setLastDirectory(DirectoryPurpose::exportChart, exportDir);
    settings.setLastDirectory(DirectoryPurpose::lecturePack, packDir);
    settings.setExportImageOptions({QSize(1920, 1080), 300});
    settings.addRecentFile(csv);
    settings.setRunsFolder(packDir);
    settings.sync();
  }
  QVERIFY(QFileInfo(iniPath()).size() > 0);

  const Settings settings(iniPath());
  QCOMPARE(settings.windowGeometry(), geometry);
  QCOMPARE(settings.windowState(), state);
  QCOMPARE(settings.theme(), Theme::dark);
  QCOMPARE(settings.presenterFontScale(), 2.25);
  QCOMPARE(settings.lastPage(), QStringLiteral("forecast"));
  QCOMPARE(settings.lastDirectory(DirectoryPurpose::openDataFile), folder_->path());
  QCOMPARE(settings.lastDirectory(DirectoryPurpose::exportChart), exportDir);
  QCOMPARE(settings.lastDirectory(DirectoryPurpose::lecturePack), packDir);
  QCOMPARE(settings.exportImageOptions().pixelSize, QSize(1920, 1080));
  QCOMPARE(settings.exportImageOptions().dpi, 300);
  QCOMPARE(settings.recentFiles(), QStringList{QFileInfo(csv).absoluteFilePath()});
  QCOMPARE(settings.runsFolder(), packDir);
}

void TestSettings::unsetOrUnreadableValuesGiveDefaults() {
  {
    QSettings raw(iniPath(), QSettings::IniFormat);
    raw.setValue(QStringLiteral("appearance/theme"), QStringLiteral("purple"));
    raw.setValue(QStringLiteral("appearance/presenterFontScale"), QStringLiteral("huge"));
    raw.setValue(QStringLiteral("export/dpi"), 5);
    raw.setValue(QStringLiteral("directories/openCsv"), folder_->filePath(QStringLiteral("gone")));
  }
  const Settings settings(iniPath());
  QCOMPARE(settings.theme(), Theme::light);
  QCOMPARE(settings.presenterFontScale(), 1.6);
  QCOMPARE(settings.exportImageOptions().dpi, ImageOptions{}.dpi);
  QCOMPARE(settings.lastDirectory(DirectoryPurpose::openDataFile), QDir::homePath());
  QVERIFY(settings.windowGeometry().isEmpty());
  QVERIFY(settings.lastPage().isEmpty());
  QVERIFY(settings.recentFiles().isEmpty());
  QCOMPARE(settings.runsFolder(), Settings::defaultRunsFolder());
  QVERIFY(settings.runsFolder().endsWith(QStringLiteral("/runs")));

  Settings outOfRange(iniPath());
  outOfRange.setPresenterFontScale(9.0);
  QCOMPARE(outOfRange.presenterFontScale(), 3.0);
}

void TestSettings::lastDataSetRoundTrips_data() {
  QTest::addColumn<bool>("overridden");  // every override set, or none (each detected again)
  QTest::newRow("every choice made") << true;
  QTest::newRow("all detected") << false;
}

void TestSettings::lastDataSetRoundTrips() {
  QFETCH(bool, overridden);
  RememberedDataset saved;
  saved.path = QStringLiteral("/data/sales, 2024.csv");
  saved.readAs = overridden ? ImportKind::eventLog : ImportKind::automatic;
  if (overridden) {
    saved.dialect.delimiter = '\t';
    saved.dialect.has_header = false;
    saved.dialect.date_column = "";  // none, as opposed to detected
    saved.dialect.decimal_mark = ',';
    saved.channels = {"north", "south"};
    saved.target = "south";
    saved.interpolate = true;
    saved.eventLog.sequence_column = "";
    saved.eventLog.decimal_mark = ',';
  }
  saved.split = QStringLiteral("0.6/0.2/0.2");
  saved.eventLog.time_column = "t";
  saved.eventLog.mark_column = overridden ? "kind" : "";
  saved.eventLog.mark_use = overridden ? aaren::MarkUse::categorical : aaren::MarkUse::none;
  {
    Settings settings(iniPath());
    saveLastDataset(settings, saved);
    settings.sync();
  }
  const std::optional<RememberedDataset> read = loadLastDataset(Settings(iniPath()));
  QVERIFY(read);
  QCOMPARE(read->path, saved.path);
  QCOMPARE(read->readAs, saved.readAs);
  QCOMPARE(read->dialect.delimiter, saved.dialect.delimiter);
  QCOMPARE(read->dialect.has_header, saved.dialect.has_header);
  QCOMPARE(read->dialect.date_column, saved.dialect.date_column);
  QCOMPARE(read->dialect.decimal_mark, saved.dialect.decimal_mark);
  QCOMPARE(read->channels, saved.channels);
  QCOMPARE(read->target, saved.target);
  QCOMPARE(read->interpolate, saved.interpolate);
  QCOMPARE(read->split, saved.split);
  QCOMPARE(read->eventLog.time_column, saved.eventLog.time_column);
  QCOMPARE(read->eventLog.sequence_column, saved.eventLog.sequence_column);
  QCOMPARE(read->eventLog.mark_column, saved.eventLog.mark_column);
  QCOMPARE(read->eventLog.mark_use, saved.eventLog.mark_use);
  QCOMPARE(read->eventLog.decimal_mark, saved.eventLog.decimal_mark);  // unset: detected again

  // Forgetting it leaves nothing behind.
  Settings settings(iniPath());
  saveLastDataset(settings, std::nullopt);
  QVERIFY(!loadLastDataset(settings));
}

void TestSettings::trainingChoiceRoundTrips() {
  TrainingChoice saved;
  saved.models = {aaren::ModelKind::transformer};
  saved.model.d_model = 48;
  saved.model.heads = 6;
  saved.model.layers = 3;
  saved.model.d_ff = 96;
  saved.model.seq_len = 36;
  saved.model.horizon = 12;
  saved.train.epochs = 17;
  saved.train.batch = 9;
  saved.train.lr = 0.0025;
  saved.train.patience = 0;
  saved.train.seed = 4000000000u;
  saved.device = aaren::ComputeDevice::cuda;  // stored as chosen; the form decides whether it can be used
  {
    Settings settings(iniPath());
    saveTrainingChoice(settings, saved);
    settings.sync();
  }
  const std::optional<TrainingChoice> read = loadTrainingChoice(Settings(iniPath()));
  QVERIFY(read);
  QCOMPARE(read->models, saved.models);
  QCOMPARE(read->model.d_model, 48);
  QCOMPARE(read->model.heads, 6);
  QCOMPARE(read->model.layers, 3);
  QCOMPARE(read->model.d_ff, 96);
  QCOMPARE(read->model.seq_len, 36);
  QCOMPARE(read->model.horizon, 12);
  QCOMPARE(read->train.epochs, 17);
  QCOMPARE(read->train.batch, 9);
  QCOMPARE(read->train.lr, 0.0025);
  QCOMPARE(read->train.patience, 0);
  QCOMPARE(read->train.seed, 4000000000u);
  QCOMPARE(read->device, aaren::ComputeDevice::cuda);
}

void TestSettings::efficiencyChoiceRoundTrips_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<bool>("cuda");
  QTest::newRow("CPU") << 2048 << false;
  // Stored as chosen; the page decides whether CUDA can be used.
  QTest::newRow("CUDA, a million tokens") << (1 << 20) << true;
}

void TestSettings::efficiencyChoiceRoundTrips() {
  QFETCH(int, tokens);
  QFETCH(bool, cuda);
  const aaren::ComputeDevice device = cuda ? aaren::ComputeDevice::cuda : aaren::ComputeDevice::cpu;
  EfficiencyChoice saved;
  saved.model.d_model = 64;
  saved.model.heads = 8;
  saved.model.layers = 2;
  saved.model.d_ff = 256;
  saved.tokens = tokens;
  saved.repeats = 3;
  saved.device = device;
  saved.models = {aaren::ModelKind::aaren, aaren::ModelKind::linear};
  {
    Settings settings(iniPath());
    QVERIFY(!loadEfficiencyChoice(settings));
    saveEfficiencyChoice(settings, saved);
    settings.sync();
  }
  const std::optional<EfficiencyChoice> read = loadEfficiencyChoice(Settings(iniPath()));
  QVERIFY(read);
  QCOMPARE(read->model.d_model, 64);
  QCOMPARE(read->model.heads, 8);
  QCOMPARE(read->model.layers, 2);
  QCOMPARE(read->model.d_ff, 256);
  QCOMPARE(read->tokens, tokens);
  QCOMPARE(read->repeats, 3);
  QCOMPARE(read->device, device);
  QCOMPARE(read->models, saved.models);
}

void TestSettings::exploreInputsRoundTrip() {
  ExploreInputChoices saved;
  saved.source = InputSource::typed;
  saved.tokens = 13;
  saved.dv = 3;
  saved.seed = 421;
  saved.scoreShift = -105.5;
  saved.scores = QStringLiteral("1, 2; 3");
  saved.values = QStringLiteral("0.5 1; -1 0; 2 2");
  saved.runFolder = folder_->path();
  {
    Settings settings(iniPath());
    saveExploreInputs(settings, saved);
    settings.sync();
  }
  const std::optional<ExploreInputChoices> read = loadExploreInputs(Settings(iniPath()));
  QVERIFY(read);
  QCOMPARE(read->source, InputSource::typed);
  QCOMPARE(read->tokens, 13);
  QCOMPARE(read->dv, 3);
  QCOMPARE(read->seed, 421);
  QCOMPARE(read->scoreShift, -105.5);
  QCOMPARE(read->scores, saved.scores);
  QCOMPARE(read->values, saved.values);
  QCOMPARE(read->runFolder, saved.runFolder);
}

void TestSettings::unsetSessionChoicesAreNone() {
  {
    QSettings raw(iniPath(), QSettings::IniFormat);
    raw.setValue(QStringLiteral("training/models"), QStringList{QStringLiteral("lstm")});
    raw.setValue(QStringLiteral("training/learningRate"), QStringLiteral("fast"));
    raw.setValue(QStringLiteral("training/device"), QStringLiteral("tpu"));
    raw.setValue(QStringLiteral("training/augmentation"), QStringLiteral("warp,slice"));
    raw.setValue(QStringLiteral("training/members"), QStringLiteral("several"));
    raw.setValue(QStringLiteral("dataset/decimalMark"), QStringLiteral(";"));
    raw.setValue(QStringLiteral("dataset/eventDecimalMark"), QStringLiteral(".."));
    raw.setValue(QStringLiteral("efficiency/tokens"), QStringLiteral("many"));
    raw.setValue(QStringLiteral("efficiency/device"), QStringLiteral("tpu"));
    raw.setValue(QStringLiteral("efficiency/models"), QStringList{QStringLiteral("retnet")});
    raw.setValue(QStringLiteral("dataset/path"), QStringLiteral("/data/a.csv"));
    raw.setValue(QStringLiteral("dataset/readAs"), QStringLiteral("spreadsheet"));
  }
  const Settings settings(iniPath());
  QVERIFY(!loadExploreInputs(settings));
  // Unreadable values give the defaults.
  const std::optional<TrainingChoice> choice = loadTrainingChoice(settings);
  QVERIFY(choice);
  const TrainingChoice defaults;
  QCOMPARE(choice->models, defaults.models);
  QCOMPARE(choice->train.lr, defaults.train.lr);
  QVERIFY(choice->augmentation == defaults.augmentation);
  QCOMPARE(choice->members, defaults.members);
  QCOMPARE(choice->device, aaren::ComputeDevice::cpu);
  const std::optional<RememberedDataset> dataset = loadLastDataset(settings);
  QVERIFY(dataset);
  QVERIFY(!dataset->dialect.decimal_mark);
  QVERIFY(!dataset->eventLog.decimal_mark);
  const std::optional<EfficiencyChoice> efficiency = loadEfficiencyChoice(settings);
  QVERIFY(efficiency);
  QCOMPARE(efficiency->tokens, EfficiencyChoice{}.tokens);
  QCOMPARE(efficiency->device, aaren::ComputeDevice::cpu);
  QCOMPARE(efficiency->models, EfficiencyChoice{}.models);  // no known model named: the default
  QCOMPARE(dataset->readAs, ImportKind::automatic);
  QVERIFY(!dataset->dialect.delimiter && !dataset->dialect.has_header && !dataset->dialect.date_column);
  QVERIFY(!loadLastDataset(Settings(folder_->filePath(QStringLiteral("empty.ini")))));
  QVERIFY(!loadTrainingChoice(Settings(folder_->filePath(QStringLiteral("empty.ini")))));
  QVERIFY(!loadEfficiencyChoice(Settings(folder_->filePath(QStringLiteral("empty.ini")))));
}

void TestSettings::recentFilesPutTheLatestFirstWithoutDuplicates() {
  const QString a = touch(QStringLiteral("a.csv"));
  const QString b = touch(QStringLiteral("b.csv"));
  const QString c = touch(QStringLiteral("c.csv"));
  Settings settings(iniPath());
  settings.addRecentFile(a);
  settings.addRecentFile(b);
  settings.addRecentFile(c);
  // The same file named another way is still the same entry.
  settings.addRecentFile(QDir(folder_->path()).filePath(QStringLiteral("./a.csv")));
  QCOMPARE(settings.recentFiles(), (QStringList{QFileInfo(a).absoluteFilePath(), c, b}));
}

void TestSettings::recentFilesKeepAtMostTen() {
  Settings settings(iniPath());
  QStringList added;
  for (int i = 0; i < 13; ++i) {
    added.prepend(touch(QStringLiteral("series-%1.csv").arg(i)));
    settings.addRecentFile(added.first());
  }
  QCOMPARE(settings.recentFiles().size(), kMaxRecentFiles);
  QCOMPARE(settings.recentFiles(), added.mid(0, kMaxRecentFiles));
}

void TestSettings::recentFilesDropMissingFiles() {
  const QString kept = touch(QStringLiteral("kept.csv"));
  const QString removed = touch(QStringLiteral("removed.csv"));
  {
    Settings settings(iniPath());
    settings.addRecentFile(kept);
    settings.addRecentFile(removed);
    settings.sync();
  }
  QVERIFY(QFile::remove(removed));
  const Settings settings(iniPath());
  QCOMPARE(settings.recentFiles(), QStringList{kept});
  QCOMPARE(withoutMissingFiles({removed, kept, removed}), QStringList{kept});
}

void TestSettings::clearingRecentFilesEmptiesTheList() {
  Settings settings(iniPath());
  settings.addRecentFile(touch(QStringLiteral("one.csv")));
  QCOMPARE(settings.recentFiles().size(), 1);
  settings.clearRecentFiles();
  QVERIFY(settings.recentFiles().isEmpty());
}

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
