// The aaren-studio executable, run as a process: --screenshot renders a page without a display,
// unknown pages and other command-line mistakes exit with 2 and say what is possible.
#include <QtTest>

#include <QImage>
#include <QProcess>

namespace {

struct Run {
  int exitCode = -1;
  QString out;
  QString err;
};

}  // namespace

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
  Run studio(const QStringList& arguments) const;
  double meanLightness(const QString& png) const;

  QTemporaryDir folder_;
};

Run TestStudioApp::studio(const QStringList& arguments) const {
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  // The user's settings stay untouched.
  environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder_.filePath(QStringLiteral("config")));
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(AAREN_STUDIO_PATH), arguments);
  if (!process.waitForFinished(-1)) return {};
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromLocal8Bit(process.readAllStandardOutput()), QString::fromLocal8Bit(process.readAllStandardError())};
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
  QTest::newRow("light") << QStringList{"--theme", "light"};
  QTest::newRow("dark") << QStringList{"--theme", "dark"};
  QTest::newRow("presenter") << QStringList{"--presenter"};
  QTest::newRow("page by title") << QStringList{"--page", "Welcome"};
}

void TestStudioApp::screenshotWritesTheRequestedPage() {
  QFETCH(QStringList, options);
  const QString png = folder_.filePath(QStringLiteral("%1.png").arg(QString::fromLatin1(QTest::currentDataTag()).replace(' ', '-')));
  const Run run = studio(options + QStringList{"--screenshot", "welcome", png});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const QImage image(png);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), QSize(1400, 900));
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
  const Run run = studio({"--screenshot", "no-such-page", png});
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
  QTest::newRow("unknown start page") << QStringList{"--page", "nowhere", "--screenshot", "welcome", "a.png"}
                                      << "unknown page 'nowhere'";
}

void TestStudioApp::commandLineMistakesExitWithTwo() {
  QFETCH(QStringList, arguments);
  QFETCH(QString, explanation);
  const Run run = studio(arguments);
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(explanation), qPrintable(run.err));
}

void TestStudioApp::unwritableScreenshotIsAnError() {
  const QString blocker = folder_.filePath(QStringLiteral("a-file"));
  QFile file(blocker);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.close();
  const QString png = blocker + QStringLiteral("/shot.png");
  const Run run = studio({"--screenshot", "welcome", png});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains(png), qPrintable(run.err));
}

void TestStudioApp::versionNamesTheComponents() {
  const Run run = studio({"--version"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains(QStringLiteral("aaren-studio " AAREN_VERSION)), qPrintable(run.out));
  QVERIFY(run.out.contains(QStringLiteral("Qt ")) && run.out.contains(QStringLiteral("Eigen ")));
  QVERIFY(run.out.contains(QStringLiteral("CUDA backend")));
}

QTEST_GUILESS_MAIN(TestStudioApp)
#include "tst_studio_app.moc"
