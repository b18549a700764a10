// With a second screen, opening a lesson puts the presenter notes there, and the class's window
// keeps the keyboard: the offscreen platform is given two screens (its configfile option), as a
// laptop beside a projector has.
#include <QApplication>
#include <QScreen>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/explore/explore_page.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/lesson/presenter_notes.hpp"
#include "ui/main_window.hpp"
#include "ui/welcome_page.hpp"

using namespace aaren::ui;

class TestPresenterNotesScreens : public QObject {
  Q_OBJECT

 private slots:
  void notesOpenOnTheSecondScreen() {
    const QList<QScreen*> screens = QGuiApplication::screens();
    QCOMPARE(screens.size(), qsizetype(2));
    QTemporaryDir folder;
    qputenv("XDG_CONFIG_HOME", folder.filePath(QStringLiteral("config")).toLocal8Bit());
    MainWindow window;
    window.addPage(new WelcomePage);
    window.addPage(new ExplorePage);
    window.setGeometry(QRect(screens[0]->geometry().topLeft() + QPoint(20, 20), QSize(1280, 720)));
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QCOMPARE(window.screen(), screens[0]);

    QCOMPARE(PresenterNotes::secondScreen(screens, screens[0]), screens[1]);
    QCOMPARE(PresenterNotes::secondScreen(screens, screens[1]), screens[0]);
    QCOMPARE(PresenterNotes::secondScreen({screens[0]}, screens[0]), static_cast<QScreen*>(nullptr));

    window.openLesson(QStringLiteral("section3"));
    PresenterNotes* notes = window.lessonPlayer().presenterNotes();
    QVERIFY(notes);
    QVERIFY(notes->isVisible());
    QCOMPARE(notes->screen(), screens[1]);
    QVERIFY(screens[1]->geometry().intersects(notes->frameGeometry()));
    QCOMPARE(notes->narrationText(), window.lessonPlayer().lesson().scenes[0].narration);
    // The projected window still has the keyboard: the remote's PageDown reaches the bar.
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_PageDown);
    QCOMPARE(window.lessonPlayer().sceneIndex(), 1);
    QVERIFY(notes->positionText().startsWith(QStringLiteral("Scene 2 of ")));
  }
};

// Two screens side by side, before the application starts.
int main(int argc, char** argv) {
  QTemporaryDir folder;
  const QString config = folder.filePath(QStringLiteral("screens.json"));
  QFile file(config);
  if (!file.open(QIODevice::WriteOnly)) return 1;
  file.write(R"({"screens": [
      {"name": "projector", "x": 0, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
      {"name": "laptop", "x": 1280, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
  ]})");
  file.close();
  qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + QFile::encodeName(config));
  QApplication app(argc, argv);
  TestPresenterNotesScreens test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_presenter_notes_screens.moc"
