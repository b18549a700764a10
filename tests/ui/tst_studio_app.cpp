// The aaren-studio executable, run as a process: --screenshot renders a page without a display,
// unknown pages and other command-line mistakes exit with 2 and say what is possible.
#include <QtTest>

#include <QImage>

#include "support/studio_process.hpp"

class TestStudioApp : public QObject {
  Q_OBJECT

 private slots:
  void screenshotWritesTheRequestedPage_data();
  void screenshotWritesTheRequestedPage();
  void darkScreenshotIsDarker();
  void unknownPageListsThePages();
  void commandLineMistakesExitWithTwo_data();
  void commandLineMistakesExitWithTwo();
  void unwritableScreenshotIsAnError();
  void versionNamesTheComponents();

 private:
  StudioRun studio(const QStringList& arguments) const;
  double meanLightness(const QString& png) const;

  QTemporaryDir folder_;
};

StudioRun TestStudioApp::studio(const QStringList& arguments) const {
  return runStudio(arguments, folder_.filePath(QStringLiteral("config")));
}

double TestStudioApp::meanLightness(const QString& png) const {
  const QImage image(png);
  double sum = 0;
  int count = 0;
  for (int y = 0; y < image.height(); y += 9)
    for (int x = 0; x < image.width(); x += 9, ++count) sum += QColor(image.pixel(x, y)).lightness();
  return count ? sum / count : -1;
}

void TestStudioApp::screenshotWritesTheRequestedPage_data() {
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<QSize>("size");
  QTest::newRow("light") << QStringList{"--theme", "light"} << QSize(1400, 900);
  QTest::newRow("dark") << QStringList{"--theme", "dark"} << QSize(1400, 900);
  QTest::newRow("presenter") << QStringList{"--presenter"} << QSize(1400, 900);
  QTest::newRow("page by title") << QStringList{"--page", "Welcome"} << QSize(1400, 900);
  QTest::newRow("1280x720") << QStringList{"--size", "1280x720"} << QSize(1280, 720);
  QTest::newRow("1920x1080 presenter") << QStringList{"--presenter", "--size", "1920x1080"} << QSize(1920, 1080);
}

void TestStudioApp::screenshotWritesTheRequestedPage() {
  QFETCH(QStringList, options);
  QFETCH(QSize, size);
  const QString png = folder_.filePath(QStringLiteral("%1.png").arg(QString::fromLatin1(QTest::currentDataTag()).replace(' ', '-')));
  const StudioRun run = studio(options + QStringList{"--screenshot", "welcome", png});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const QImage image(png);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), size);
}

void TestStudioApp::darkScreenshotIsDarker() {
  const QString light = folder_.filePath(QStringLiteral("compare-light.png"));
  const QString dark = folder_.filePath(QStringLiteral("compare-dark.png"));
  QCOMPARE(studio({"--theme", "light", "--screenshot", "welcome", light}).exitCode, 0);
  QCOMPARE(studio({"--theme", "dark", "--screenshot", "welcome", dark}).exitCode, 0);
  QVERIFY(meanLightness(light) > 180);
  QVERIFY(meanLightness(dark) < 90);
}

void TestStudioApp::unknownPageListsThePages() {
  const QString png = folder_.filePath(QStringLiteral("never.png"));
  const StudioRun run = studio({"--screenshot", "no-such-page", png});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(QStringLiteral("unknown page 'no-such-page'")), qPrintable(run.err));
  QVERIFY2(run.err.contains(QStringLiteral("welcome")), qPrintable(run.err));
  QVERIFY(!QFileInfo::exists(png));
}

void TestStudioApp::commandLineMistakesExitWithTwo_data() {
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<QString>("explanation");
  QTest::newRow("screenshot without a file") << QStringList{"--screenshot", "welcome"} << "FILE.png";
  QTest::newRow("unknown option") << QStringList{"--screenshot", "welcome", "a.png", "--colour"} << "colour";
  QTest::newRow("bad theme") << QStringList{"--theme", "sepia", "--screenshot", "welcome", "a.png"} << "light or dark";
  QTest::newRow("bad size") << QStringList{"--size", "1280by720", "--screenshot", "welcome", "a.png"} << "WIDTHxHEIGHT";
  QTest::newRow("size without a screenshot") << QStringList{"--size", "1280x720"} << "give both";
  QTest::newRow("unknown start page") << QStringList{"--page", "nowhere", "--screenshot", "welcome", "a.png"}
                                      << "unknown page 'nowhere'";
}

void TestStudioApp::commandLineMistakesExitWithTwo() {
  QFETCH(QStringList, arguments);
  QFETCH(QString, explanation);
  const StudioRun run = studio(arguments);
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(explanation), qPrintable(run.err));
}

void TestStudioApp::unwritableScreenshotIsAnError() {
  const QString blocker = folder_.filePath(QStringLiteral("a-file"));
  QFile file(blocker);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.close();
  const QString png = blocker + QStringLiteral("/shot.png");
  const StudioRun run = studio({"--screenshot", "welcome", png});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains(png), qPrintable(run.err));
}

void TestStudioApp::versionNamesTheComponents() {
  const StudioRun run = studio({"--version"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains(QStringLiteral("aaren-studio " AAREN_VERSION)), qPrintable(run.out));
  QVERIFY(run.out.contains(QStringLiteral("Qt ")) && run.out.contains(QStringLiteral("Eigen ")));
  QVERIFY(run.out.contains(QStringLiteral("CUDA backend")));
}

QTEST_GUILESS_MAIN(TestStudioApp)
#include "tst_studio_app.moc"
