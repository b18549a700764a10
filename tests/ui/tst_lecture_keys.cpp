// What a lecturer expects beside the lesson bar, from the keyboard or a presentation remote: B or
// '.' blanks the window and brings it back (Esc too, without leaving presenter mode), a text field
// keeps those keys; a scene's number and Enter, or G and the number, go to that scene (after G the
// digits do nothing else; Esc forgets them; a number past the end is refused in the bar); S, H, K
// and A pick the scan algorithm from any view; N opens the presenter notes with the narration, the
// next scene and a timer; the shortcut list names every one of these keys.
#include <QAction>
#include <QLineEdit>
#include <QMessageBox>
#include <QStatusBar>
#include <QtTest>

#include "ui/appearance.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/shortcut_overlay.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/lesson/presenter_notes.hpp"
#include "ui/lesson/scene_number_entry.hpp"
#include "ui/lesson/screen_blank.hpp"
#include "ui/main_window.hpp"
#include "ui/welcome_page.hpp"

using namespace aaren::ui;

class TestLectureKeys : public QObject {
  Q_OBJECT

 private slots:
  void init();
  void cleanup();
  void blankKeysBlackenTheWindowAndBringItBack_data();
  void blankKeysBlackenTheWindowAndBringItBack();
  void escapeEndsTheBlankButNotPresenterMode();
  void aTextFieldKeepsTheBlankKeys();
  void digitsAndEnterGoToAScene_data();
  void digitsAndEnterGoToAScene();
  void afterGTheDigitsOnlyNameTheScene();
  void escapeForgetsANumberHalfTyped();
  void aNumberPastTheEndIsRefusedInTheBar();
  void scanKeysPickTheAlgorithm_data();
  void scanKeysPickTheAlgorithm();
  void scanKeyEndsTheErratum();
  void notesFollowTheLessonWithATimer();
  void elapsedTimeReadsAsAClock_data();
  void elapsedTimeReadsAsAClock();
  void shortcutListNamesTheNewKeys();

 private:
  LessonPlayer& player() const { return window_->lessonPlayer(); }
  // As a keyboard sends it: to the widget with the focus.
  void press(int key) {
    QWidget* focus = QApplication::focusWidget();
    QTest::keyClick(focus && focus->window() == window_.get() ? focus : window_.get(), Qt::Key(key));
  }
  QTemporaryDir folder_;
  std::unique_ptr<MainWindow> window_;
  ExplorePage* explore_ = nullptr;
};

void TestLectureKeys::init() {
  qputenv("XDG_CONFIG_HOME", folder_.filePath(QStringLiteral("config")).toLocal8Bit());
  window_ = std::make_unique<MainWindow>();
  window_->addPage(new WelcomePage);
  explore_ = new ExplorePage;
  window_->addPage(explore_);
  window_->resize(1280, 720);
  window_->show();
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  window_->showPage(explore_->id());
  explore_->setFocus();
}

void TestLectureKeys::cleanup() {
  window_.reset();
  Appearance::instance().setPresenterMode(false);
}

void TestLectureKeys::blankKeysBlackenTheWindowAndBringItBack_data() {
  QTest::addColumn<int>("key");
  QTest::newRow("B") << int(Qt::Key_B);
  QTest::newRow("'.' (a remote's blank button)") << int(Qt::Key_Period);
}

void TestLectureKeys::blankKeysBlackenTheWindowAndBringItBack() {
  QFETCH(int, key);
  QAction* action = ScreenBlank::action(window_.get());
  QSignalSpy triggered(action, &QAction::triggered);
  QVERIFY(!ScreenBlank::isBlank(window_.get()));
  press(key);
  QCOMPARE(triggered.count(), 1);
  QVERIFY(ScreenBlank::isBlank(window_.get()));
  QVERIFY(action->isChecked());
  // The blank covers the whole window, in black.
  const QImage picture = window_->grab().toImage();
  QCOMPARE(picture.pixelColor(picture.width() / 2, picture.height() / 2), QColor(Qt::black));
  QCOMPARE(picture.pixelColor(5, 5), QColor(Qt::black));
  press(key);
  QCOMPARE(triggered.count(), 2);
  QVERIFY(!ScreenBlank::isBlank(window_.get()));
  QVERIFY(!action->isChecked());
  // It works in a lesson too, and the lesson's keys go on working behind it.
  window_->openLesson(QStringLiteral("section3"));
  press(key);
  QVERIFY(ScreenBlank::isBlank(window_.get()));
  press(Qt::Key_PageDown);
  QCOMPARE(player().sceneIndex(), 1);
  press(key);
  QVERIFY(!ScreenBlank::isBlank(window_.get()));
}

void TestLectureKeys::escapeEndsTheBlankButNotPresenterMode() {
  window_->setPresenterMode(true);
  press(Qt::Key_B);
  QVERIFY(ScreenBlank::isBlank(window_.get()));
  press(Qt::Key_Escape);
  QVERIFY(!ScreenBlank::isBlank(window_.get()));
  QVERIFY(window_->presenterMode());
  QVERIFY(!ScreenBlank::action(window_.get())->isChecked());
}

void TestLectureKeys::aTextFieldKeepsTheBlankKeys() {
  auto* field = new QLineEdit;
  window_->statusBar()->addWidget(field);
  field->setFocus();
  QTest::keyClicks(field, QStringLiteral("b.12"));
  QCOMPARE(field->text(), QStringLiteral("b.12"));
  QVERIFY(!ScreenBlank::isBlank(window_.get()));
  window_->openLesson(QStringLiteral("section3"));
  field->setFocus();
  QTest::keyClicks(field, QStringLiteral("4"));
  QTest::keyClick(field, Qt::Key_Return);
  QCOMPARE(player().sceneIndex(), 0);
}

void TestLectureKeys::digitsAndEnterGoToAScene_data() {
  QTest::addColumn<QString>("digits");
  QTest::addColumn<int>("enter");
  QTest::addColumn<int>("index");
  QTest::newRow("5 Return") << "5" << int(Qt::Key_Return) << 4;
  QTest::newRow("12 Enter (keypad)") << "12" << int(Qt::Key_Enter) << 11;
  QTest::newRow("1 Return, the first scene") << "1" << int(Qt::Key_Return) << 0;
}

void TestLectureKeys::digitsAndEnterGoToAScene() {
  QFETCH(QString, digits);
  QFETCH(int, enter);
  QFETCH(int, index);
  window_->openLesson(QStringLiteral("section3"));
  press(Qt::Key_PageDown);
  press(Qt::Key_PageDown);
  QSignalSpy shown(&player(), &LessonPlayer::sceneShown);
  for (QChar digit : digits) press(Qt::Key_0 + digit.digitValue());
  QVERIFY(player().goToText().contains(digits));
  press(enter);
  QCOMPARE(player().sceneIndex(), index);
  QCOMPARE(shown.count(), 1);
  QVERIFY(player().goToText().isEmpty());
}

void TestLectureKeys::afterGTheDigitsOnlyNameTheScene() {
  window_->openLesson(QStringLiteral("section3"));
  ExploreView* before = &explore_->currentView();
  press(Qt::Key_G);
  QVERIFY(player().sceneNumberEntry().isTyping());
  QVERIFY(player().goToText().startsWith(QStringLiteral("Go to scene")));
  // '3' alone shows the Transformer view; after G it is only the scene's number.
  press(Qt::Key_3);
  QCOMPARE(&explore_->currentView(), before);
  QCOMPARE(player().sceneIndex(), 0);
  press(Qt::Key_Return);
  QCOMPARE(player().sceneIndex(), 2);
  QVERIFY(!player().sceneNumberEntry().isTyping());
}

void TestLectureKeys::escapeForgetsANumberHalfTyped() {
  window_->openLesson(QStringLiteral("section3"));
  window_->setPresenterMode(true);
  press(Qt::Key_G);
  press(Qt::Key_7);
  press(Qt::Key_Escape);
  QVERIFY(!player().sceneNumberEntry().isTyping());
  QVERIFY(window_->presenterMode());  // the Esc was the number's
  press(Qt::Key_Return);
  QCOMPARE(player().sceneIndex(), 0);
  // Any other key forgets it as well, and does what it does.
  press(Qt::Key_1);
  press(Qt::Key_PageDown);
  QCOMPARE(player().sceneIndex(), 1);
  press(Qt::Key_Return);
  QCOMPARE(player().sceneIndex(), 1);
}

void TestLectureKeys::aNumberPastTheEndIsRefusedInTheBar() {
  window_->openLesson(QStringLiteral("section3"));
  QSignalSpy shown(&player(), &LessonPlayer::sceneShown);
  press(Qt::Key_9);
  press(Qt::Key_9);
  press(Qt::Key_Return);
  QVERIFY(shown.isEmpty());
  QCOMPARE(player().sceneIndex(), 0);
  QVERIFY2(player().goToText().contains(QStringLiteral("No scene 99")), qPrintable(player().goToText()));
  press(Qt::Key_0);
  press(Qt::Key_Return);
  QCOMPARE(player().sceneIndex(), 0);
  QVERIFY(player().goToText().contains(QStringLiteral("No scene 0")));
}

void TestLectureKeys::scanKeysPickTheAlgorithm_data() {
  QTest::addColumn<int>("key");
  QTest::addColumn<int>("display");
  QTest::addColumn<QString>("name");
  QTest::newRow("S") << int(Qt::Key_S) << int(ScanDisplay::sequential) << "Sequential";
  QTest::newRow("H") << int(Qt::Key_H) << int(ScanDisplay::hillisSteele) << "Hillis\u2013Steele";
  QTest::newRow("K") << int(Qt::Key_K) << int(ScanDisplay::brentKung) << "Brent\u2013Kung";
  QTest::newRow("A") << int(Qt::Key_A) << int(ScanDisplay::sideBySide) << "All three side by side";
}

void TestLectureKeys::scanKeysPickTheAlgorithm() {
  QFETCH(int, key);
  QFETCH(int, display);
  QFETCH(QString, name);
  explore_->showView(1);  // the cell: the key brings the scan tree up
  QSignalSpy status(explore_, &Page::statusMessage);
  press(key);
  QCOMPARE(&explore_->currentView(), static_cast<ExploreView*>(&explore_->scanTab()));
  QCOMPARE(int(explore_->scanTab().display()), display);
  QCOMPARE(explore_->scanTab().displayName(), name);
  QCOMPARE(explore_->currentView().controller().position(), 0);
  QVERIFY(!status.isEmpty());
  QCOMPARE(status.last().at(0).toString(), QStringLiteral("Scan: %1").arg(name));
}

void TestLectureKeys::scanKeyEndsTheErratum() {
  explore_->showView(0);
  explore_->scanTab().setErrata(true);
  press(Qt::Key_K);
  QVERIFY(!explore_->scanTab().errata());
  QCOMPARE(explore_->scanTab().display(), ScanDisplay::brentKung);
  QCOMPARE(explore_->scanTab().run(0).method(), aaren::ScanMethod::brent_kung);
}

void TestLectureKeys::notesFollowTheLessonWithATimer() {
  QAction* notesAction = player().presenterNotesAction();
  QVERIFY(!notesAction->isEnabled());  // no lesson, no notes
  window_->openLesson(QStringLiteral("section3"));
  // The offscreen test platform has one screen: the notes wait for N.
  QCOMPARE(QGuiApplication::screens().size(), qsizetype(1));
  QVERIFY(!player().presenterNotes() || !player().presenterNotes()->isVisible());
  QVERIFY(notesAction->isEnabled());
  press(Qt::Key_N);
  PresenterNotes* notes = player().presenterNotes();
  QVERIFY(notes);
  QVERIFY(notes->isVisible());
  QVERIFY(notes->isWindow());
  const Lesson& lesson = player().lesson();
  QCOMPARE(notes->narrationText(), lesson.scenes[0].narration);
  QCOMPARE(notes->nextText(), QStringLiteral("Next: scene 2 \u00b7 %1").arg(lesson.scenes[1].title));
  // The answer is the lecturer's to see before the class does.
  QVERIFY(notes->questionText().contains(lesson.scenes[0].question->answer));
  QVERIFY(player().answerText().isEmpty());
  QVERIFY(notes->elapsedText().contains(QLatin1Char(':')));
  // The notes follow the bar.
  press(Qt::Key_PageDown);
  QVERIFY(notes->positionText().startsWith(QStringLiteral("Scene 2 of ")));
  QCOMPARE(notes->narrationText(), lesson.scenes[1].narration);
  const int last = int(lesson.scenes.size()) - 1;
  player().showScene(last - 1);
  QCOMPARE(notes->nextText(), QStringLiteral("Next: scene %1 \u00b7 %2").arg(last + 1).arg(lesson.scenes[last].title));
  // Opening the notes left the keyboard with the projected window; clicked on, the notes take the
  // remote's keys too.
  QCOMPARE(QApplication::activeWindow(), static_cast<QWidget*>(window_.get()));
  notes->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(notes));
  QTest::keyClick(notes, Qt::Key_PageUp);
  QCOMPARE(player().sceneIndex(), last - 2);
  // The last scene needs the Efficiency page, which this window lacks: its message aside, the
  // notes say the lesson ends there.
  player().showScene(last);
  if (auto* box = window_->findChild<QMessageBox*>()) box->close();
  QCOMPARE(notes->nextText(), QStringLiteral("Next: the end of the lesson"));
  player().closeLesson();
  QVERIFY(!notes->isVisible());
  QVERIFY(!notesAction->isEnabled());
}

void TestLectureKeys::elapsedTimeReadsAsAClock_data() {
  QTest::addColumn<qint64>("ms");
  QTest::addColumn<QString>("text");
  QTest::newRow("start") << qint64(0) << "0:00";
  QTest::newRow("seconds") << qint64(7900) << "0:07";
  QTest::newRow("minutes") << qint64(754000) << "12:34";
  QTest::newRow("hours") << qint64(3723000) << "1:02:03";
}

void TestLectureKeys::elapsedTimeReadsAsAClock() {
  QFETCH(qint64, ms);
  QFETCH(QString, text);
  QCOMPARE(PresenterNotes::formatElapsed(ms), text);
}

void TestLectureKeys::shortcutListNamesTheNewKeys() {
  QStringList keys;
  for (const ShortcutEntry& entry : keyboardShortcuts()) keys << entry.keys;
  for (const QString& expected : {QStringLiteral("B / ."), QStringLiteral("S / H / K / A"), QStringLiteral("N"),
                                  QStringLiteral("12 Enter, G 12 Enter")})
    QVERIFY2(keys.contains(expected), qPrintable(expected + QStringLiteral(" is not listed")));
}

QTEST_MAIN(TestLectureKeys)
#include "tst_lecture_keys.moc"
