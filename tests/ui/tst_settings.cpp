// Settings: every value survives a round trip through an INI file; the recent files list keeps
// the latest first, each file once, at most ten, and forgets files that no longer exist.
#include <QtTest>

#include "ui/recent_files.hpp"
#include "ui/settings.hpp"

using namespace aaren::ui;

class TestSettings : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { folder_ = std::make_unique<QTemporaryDir>(); }

  void everySettingRoundTrips();
  void unsetOrUnreadableValuesGiveDefaults();
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
    settings.setLastDirectory(DirectoryPurpose::openCsv, folder_->path());
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
  QCOMPARE(settings.lastDirectory(DirectoryPurpose::openCsv), folder_->path());
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
  QCOMPARE(settings.lastDirectory(DirectoryPurpose::openCsv), QDir::homePath());
  QVERIFY(settings.windowGeometry().isEmpty());
  QVERIFY(settings.lastPage().isEmpty());
  QVERIFY(settings.recentFiles().isEmpty());
  QCOMPARE(settings.runsFolder(), Settings::defaultRunsFolder());
  QVERIFY(settings.runsFolder().endsWith(QStringLiteral("/runs")));

  Settings outOfRange(iniPath());
  outOfRange.setPresenterFontScale(9.0);
  QCOMPARE(outOfRange.presenterFontScale(), 3.0);
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
