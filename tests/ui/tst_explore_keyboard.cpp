// The Explore page from the keyboard, from the moment it is shown: entering it from the sidebar,
// Right/Left, Space, Home/End, +/-, 1/2/3, E and P work without a click on the drawing; '?' and
// Help > Keyboard Shortcuts list every shortcut (the lesson keys too); a text field keeps its keys,
// but after a number typed into a spin box the arrows still step and Enter gives the keyboard back;
// changing the algorithm, the cell's mode or the inputs starts again at step 0.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QListWidget>
#include <QSpinBox>

#include "ui/appearance.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/input_panel.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/shortcut_overlay.hpp"
#include "ui/main_window.hpp"
#include "ui/welcome_page.hpp"

using namespace aaren::ui;

class ExploreKeyboardTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void arrowsAndSpaceWorkOnArrivalFromTheSidebar();
  void homeEndAndSpeedKeys();
  void numberKeysSwitchViewsAndKeepTheKeyboard();
  void errataKeyTogglesTheShownViewsErratum();
  void presenterKeyTogglesPresenterMode();
  void questionMarkAndHelpMenuListEveryShortcut();
  void aTextFieldKeepsItsKeys();
  void arrowsStillStepAfterTypingInASpinBox();
  void algorithmModeAndInputChangesStartAtStepZero();

 private:
  void enterExploreFromTheSidebar();
  void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
  StepController& controller() const { return page_->currentView().controller(); }

  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
  ExplorePage* page_ = nullptr;
};

void ExploreKeyboardTest::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
}

void ExploreKeyboardTest::init() {
  QSettings(QStringLiteral("AarenStudio"), QStringLiteral("Aaren Studio")).clear();
  window_ = std::make_unique<MainWindow>();
  window_->addPage(new WelcomePage);
  page_ = new ExplorePage;
  window_->addPage(page_);
  window_->resize(1400, 900);
  window_->show();
  QApplication::setActiveWindow(window_.get());
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  enterExploreFromTheSidebar();
}

void ExploreKeyboardTest::cleanup() {
  window_.reset();
  Appearance::instance().setPresenterMode(false);
}

// A click on the Explore row of the sidebar, as a lecturer arrives; nothing on the page is clicked.
void ExploreKeyboardTest::enterExploreFromTheSidebar() {
  auto* sidebar = window_->findChild<QListWidget*>(QStringLiteral("sidebar"));
  QVERIFY(sidebar);
  QCOMPARE(window_->currentPage()->id(), QStringLiteral("welcome"));
  const QRect row = sidebar->visualItemRect(sidebar->item(1));
  QTest::mouseClick(sidebar->viewport(), Qt::LeftButton, {}, row.center());
  QCOMPARE(window_->currentPage(), page_);
  QTRY_VERIFY(page_->isAncestorOf(QApplication::focusWidget()));
}

// Sent where the keyboard is, as a real key press would be.
void ExploreKeyboardTest::press(int key, Qt::KeyboardModifiers modifiers) {
  QWidget* focus = QApplication::focusWidget();
  QVERIFY(focus);
  QTest::keyClick(focus, Qt::Key(key), modifiers);
}

void ExploreKeyboardTest::arrowsAndSpaceWorkOnArrivalFromTheSidebar() {
  QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(&page_->currentView()));
  QCOMPARE(controller().position(), 0);
  press(Qt::Key_Right);
  QCOMPARE(controller().position(), 1);
  press(Qt::Key_Right);
  press(Qt::Key_Left);
  QCOMPARE(controller().position(), 1);
  press(Qt::Key_Space);
  QVERIFY(controller().isPlaying());
  press(Qt::Key_Space);
  QVERIFY(!controller().isPlaying());
}

void ExploreKeyboardTest::homeEndAndSpeedKeys() {
  press(Qt::Key_End);
  QVERIFY(controller().atEnd());
  QVERIFY(controller().count() > 1);
  press(Qt::Key_Home);
  QCOMPARE(controller().position(), 0);
  const double speed = controller().speed();
  press(Qt::Key_Plus);
  QVERIFY(controller().speed() > speed);
  press(Qt::Key_Minus);
  press(Qt::Key_Minus);
  QVERIFY(controller().speed() < speed);
}

void ExploreKeyboardTest::numberKeysSwitchViewsAndKeepTheKeyboard() {
  press(Qt::Key_2);
  QCOMPARE(page_->currentView().id(), QStringLiteral("cell"));
  QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(&page_->currentView()));
  press(Qt::Key_Right);
  QCOMPARE(page_->cellTab().controller().position(), 1);
  press(Qt::Key_3);
  QCOMPARE(page_->currentView().id(), QStringLiteral("figure1"));
  press(Qt::Key_1);
  QCOMPARE(page_->currentView().id(), QStringLiteral("scan"));
  QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(&page_->currentView()));
}

void ExploreKeyboardTest::errataKeyTogglesTheShownViewsErratum() {
  QVERIFY(!page_->scanTab().errata());
  press(Qt::Key_E);
  QVERIFY(page_->scanTab().errata());
  QCOMPARE(page_->scanTab().trees().size(), 2);
  press(Qt::Key_E);
  QVERIFY(!page_->scanTab().errata());
  press(Qt::Key_2);
  press(Qt::Key_E);
  QVERIFY(page_->cellTab().printedTypo());
  QVERIFY(!page_->scanTab().errata());
}

void ExploreKeyboardTest::presenterKeyTogglesPresenterMode() {
  press(Qt::Key_P);
  QVERIFY(window_->presenterMode());
  QVERIFY(window_->findChild<QAction*>(QStringLiteral("presenterAction"))->isChecked());
  QTRY_VERIFY(page_->isAncestorOf(QApplication::focusWidget()));
  press(Qt::Key_Right);
  QCOMPARE(controller().position(), 1);
  press(Qt::Key_P);
  QVERIFY(!window_->presenterMode());
}

void ExploreKeyboardTest::questionMarkAndHelpMenuListEveryShortcut() {
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Question, Qt::ShiftModifier);
  auto* overlay = window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay"));
  QVERIFY(overlay);
  QVERIFY(overlay->isVisible());
  QCOMPARE(overlay->geometry(), window_->rect());
  press(Qt::Key_X);  // any key closes it and gives the keyboard back
  QTRY_VERIFY(!window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay")));
  QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(&page_->currentView()));
  press(Qt::Key_Right);
  QCOMPARE(controller().position(), 1);

  window_->findChild<QAction*>(QStringLiteral("shortcutsAction"))->trigger();
  QVERIFY(window_->findChild<ShortcutOverlay*>(QStringLiteral("shortcutOverlay")));

  QStringList keys;
  for (const ShortcutEntry& entry : keyboardShortcuts()) keys << entry.keys;
  for (const char* expected : {"Right / Left", "Space", "Home / End", "+ / \u2212", "1 to 5", "E", "P", "?",
                               "PageDown / PageUp", "R", "F11", "Esc"})
    QVERIFY2(keys.contains(QString::fromUtf8(expected)), expected);
}

void ExploreKeyboardTest::aTextFieldKeepsItsKeys() {
  auto* seed = page_->findChild<QSpinBox*>(QStringLiteral("inputSeed"));
  QVERIFY(seed);
  seed->setFocus();
  QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(seed));
  press(Qt::Key_End);
  press(Qt::Key_2);
  QCOMPARE(controller().position(), 0);
  QCOMPARE(page_->currentView().id(), QStringLiteral("scan"));
  QVERIFY(seed->text().endsWith(QLatin1Char('2')));
}

void ExploreKeyboardTest::arrowsStillStepAfterTypingInASpinBox() {
  auto* tokens = page_->findChild<QSpinBox*>(QStringLiteral("inputTokens"));
  QVERIFY(tokens);
  tokens->setFocus();
  QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(tokens));
  tokens->selectAll();
  QTest::keyClicks(tokens, QStringLiteral("12"));
  QCOMPARE(page_->inputPanel().inputs().tokens(), 12);
  QCOMPARE(controller().position(), 0);
  press(Qt::Key_Right);
  press(Qt::Key_Right);
  QCOMPARE(controller().position(), 2);
  press(Qt::Key_Left);
  QCOMPARE(controller().position(), 1);
  QCOMPARE(tokens->value(), 12);
  // Enter keeps the number and gives every key back to the view: 2 now shows the cell.
  press(Qt::Key_Return);
  QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(&page_->currentView()));
  press(Qt::Key_2);
  QCOMPARE(page_->currentView().id(), QStringLiteral("cell"));
  QCOMPARE(tokens->value(), 12);
}

void ExploreKeyboardTest::algorithmModeAndInputChangesStartAtStepZero() {
  press(Qt::Key_Right);
  press(Qt::Key_Right);
  QCOMPARE(controller().position(), 2);
  auto* algorithm = page_->findChild<QComboBox*>(QStringLiteral("scanAlgorithm"));
  algorithm->setCurrentIndex(algorithm->findData(int(ScanDisplay::brentKung)));
  QCOMPARE(page_->scanTab().display(), ScanDisplay::brentKung);
  QCOMPARE(controller().position(), 0);

  press(Qt::Key_End);
  page_->scanTab().setErrata(true);
  QCOMPARE(controller().position(), 0);

  press(Qt::Key_End);
  page_->inputPanel().setRandom(12, 1, 99, 0.0);
  QCOMPARE(controller().position(), 0);

  press(Qt::Key_2);
  press(Qt::Key_End);
  page_->cellTab().setMode(CellMode::blockByBlock);
  QCOMPARE(controller().position(), 0);
  press(Qt::Key_End);
  page_->cellTab().setBlockSize(3);
  QCOMPARE(controller().position(), 0);
}

QTEST_MAIN(ExploreKeyboardTest)
#include "tst_explore_keyboard.moc"
