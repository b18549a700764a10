// `aaren-studio FILE`, as the desktop's "Open With" and a double-click on a lesson start it: a
// lesson file opens at its first scene (NAME.lesson.json has the id NAME), a data file loads on the
// Data page, and a file that cannot be opened is said in a message over the window, which stays.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QTemporaryDir>

#include "support/test_files.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/data_page.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/studio_pages.hpp"

using namespace aaren::ui;

namespace {

constexpr int kLoadTimeoutMs = 60000;

// The window with every page, as aaren-studio builds it (a lesson's scenes show on several).
struct Studio {
  Studio() : pages(addStudioPages(window)) {
    window.addPage(new ExplorePage);
    window.addPage(new EfficiencyPage);
    window.show();
  }
  MainWindow window;
  StudioPages pages;
};

// The warnings the window shows (MainWindow::reportError opens them without blocking).
QStringList warningsShown() {
  QStringList texts;
  for (QWidget* widget : QApplication::topLevelWidgets())
    if (auto* box = qobject_cast<QMessageBox*>(widget); box && box->isVisible()) texts << box->text();
  return texts;
}

}  // namespace

class TestOpenFileArgument : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(settings_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
  }

  void aLessonFileOpensAtItsFirstScene() {
    QFile bundled(QStringLiteral(AAREN_SOURCE_DIR "/ui/lesson/lessons/three-rnns.json"));
    QVERIFY(bundled.open(QIODevice::ReadOnly));
    QJsonObject lesson = QJsonDocument::fromJson(bundled.readAll()).object();
    lesson.remove(QStringLiteral("id"));  // named by its file, as a lecturer's own lesson is
    QTemporaryDir dir;
    const QString path = QString::fromStdString(
        write_file(dir, "week-3.lesson.json", QJsonDocument(lesson).toJson().toStdString()));

    Studio studio;
    openFileArgument(studio.window, studio.pages, path);
    const LessonPlayer& player = studio.window.lessonPlayer();
    QVERIFY(player.hasLesson());
    QCOMPARE(player.lesson().id, QStringLiteral("week-3"));
    QCOMPARE(player.lesson().title, lesson.value(QStringLiteral("title")).toString());
    QVERIFY2(warningsShown().isEmpty(), qPrintable(warningsShown().join('\n')));
  }

  void aDataFileLoadsOnTheDataPage() {
    Studio studio;
    QSignalSpy finished(studio.pages.data, &DataPage::loadFinished);
    const QString csv = QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_AirPassengers.csv");
    openFileArgument(studio.window, studio.pages, csv);
    QVERIFY(!finished.isEmpty() || finished.wait(kLoadTimeoutMs));
    QVERIFY(finished.last().first().toBool());
    QCOMPARE(QFileInfo(studio.pages.data->filePath()).canonicalFilePath(), QFileInfo(csv).canonicalFilePath());
  }

  void aBrokenLessonIsSaidInTheWindow() {
    QTemporaryDir dir;
    const QString path = QString::fromStdString(write_file(dir, "broken.lesson.json", "{\"format\": "));
    Studio studio;
    openFileArgument(studio.window, studio.pages, path);
    QVERIFY(!studio.window.lessonPlayer().hasLesson());
    const QStringList warnings = warningsShown();
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().contains(QLatin1String("broken.lesson.json")), qPrintable(warnings.first()));
    QVERIFY(studio.window.isVisible());
    for (QWidget* widget : QApplication::topLevelWidgets())
      if (qobject_cast<QMessageBox*>(widget)) widget->close();
  }

 private:
  QTemporaryDir settings_;  // the windows' settings, away from the user's
};

QTEST_MAIN(TestOpenFileArgument)
#include "tst_open_file_argument.moc"
