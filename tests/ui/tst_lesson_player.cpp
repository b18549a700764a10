// The lesson player in the main window, offscreen: the bar shows the title, "Scene k of n", the
// narration and the question, PageDown / PageUp / R work from the moment it is shown, every
// bundled scene puts its content on the page (a picture that is not blank, the page's own caption
// and the lit formula terms), the efficiency scene starts a short real run, and a broken lesson
// opened from the window is shown with its line and column instead of crashing.
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QtTest>

#include "support/test_files.hpp"
#include "ui/appearance.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/formula_panel.hpp"
#include "ui/lesson/lesson_parser.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/lesson/lesson_stage.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/welcome_page.hpp"

using namespace aaren::ui;

namespace {

// Guards against a hang only; a short run takes seconds.
constexpr int kRunGuardMs = 10 * 60 * 1000;

// Distinct colours in a grid of samples: a blank or one-colour picture has one or two.
int distinctColours(const QImage& image) {
  QSet<QRgb> colours;
  const int stepX = std::max(1, image.width() / 120), stepY = std::max(1, image.height() / 120);
  for (int y = 0; y < image.height(); y += stepY)
    for (int x = 0; x < image.width(); x += stepX) colours.insert(image.pixel(x, y));
  return int(colours.size());
}

// The share of sampled pixels that differ from the most common colour (the background).
double foregroundShare(const QImage& image) {
  QHash<QRgb, int> counts;
  int total = 0;
  const int stepX = std::max(1, image.width() / 120), stepY = std::max(1, image.height() / 120);
  for (int y = 0; y < image.height(); y += stepY)
    for (int x = 0; x < image.width(); x += stepX, ++total) ++counts[image.pixel(x, y)];
  int background = 0;
  for (int count : std::as_const(counts)) background = std::max(background, count);
  return total ? 1.0 - double(background) / total : 0.0;
}

}  // namespace

class TestLessonPlayer : public QObject {
  Q_OBJECT

 private slots:
  void init();
  void cleanup();
  void barShowsTheFirstSceneWhenOpened();
  void keysMoveBetweenScenesAndReveal();
  void everyBundledSceneShowsItsContent();
  void efficiencySceneStartsAShortRun();
  void closingGivesTheEfficiencyPageItsChoicesBack();
  void closingHidesTheBar();
  void brokenLessonIsShownWithItsPosition();
  void welcomePageAsksForTheBundledLesson();

 private:
  LessonPlayer& player() const { return window_->lessonPlayer(); }
  ExplorePage* explore_ = nullptr;
  EfficiencyPage* efficiency_ = nullptr;
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir folder_;
};

void TestLessonPlayer::init() {
  // The user's settings stay untouched.
  qputenv("XDG_CONFIG_HOME", folder_.filePath(QStringLiteral("config")).toLocal8Bit());
  window_ = std::make_unique<MainWindow>();
  window_->addPage(new WelcomePage);
  explore_ = new ExplorePage;
  efficiency_ = new EfficiencyPage;
  window_->addPage(explore_);
  window_->addPage(efficiency_);
  window_->resize(1400, 900);
  window_->show();
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
}

void TestLessonPlayer::cleanup() {
  if (efficiency_->isRunning()) {
    QSignalSpy finished(efficiency_, &EfficiencyPage::runFinished);
    efficiency_->stop();
    QVERIFY(finished.wait(kRunGuardMs));
  }
  window_.reset();
}

void TestLessonPlayer::barShowsTheFirstSceneWhenOpened() {
  QVERIFY(!player().isVisible());
  window_->openLesson(QStringLiteral("section3"));
  QVERIFY(player().isVisible());
  QCOMPARE(player().findChild<QLabel*>(QStringLiteral("lessonTitle"))->text(),
           QStringLiteral("Attention as an RNN in 20 minutes"));
  const int scenes = int(player().lesson().scenes.size());
  QCOMPARE(player().positionText(), QStringLiteral("Scene 1 of %1 \u00b7 Softmax attention of one query").arg(scenes));
  QCOMPARE(player().narrationText(), player().lesson().scenes[0].narration);
  QVERIFY(player().questionText().startsWith(QStringLiteral("Question: Which token")));
  QVERIFY(player().answerText().isEmpty());
  QCOMPARE(window_->currentPage(), static_cast<Page*>(explore_));
  // The narration is larger than the window's text, for the back row, and grows in presenter mode.
  const QLabel* narration = player().findChild<QLabel*>(QStringLiteral("lessonNarration"));
  const qreal normal = pointSizeOf(narration->font());
  QVERIFY(normal > pointSizeOf(QApplication::font()));
  Appearance::instance().setPresenterMode(true);
  const qreal presenter = pointSizeOf(narration->font());
  Appearance::instance().setPresenterMode(false);
  QVERIFY2(presenter >= normal * 1.2,
           qPrintable(QStringLiteral("%1 pt, %2 pt in presenter mode").arg(normal).arg(presenter)));
  QVERIFY(player().isVisible());
}

void TestLessonPlayer::keysMoveBetweenScenesAndReveal() {
  window_->openLesson(QStringLiteral("section3"));
  const Lesson& lesson = player().lesson();
  // No click first: the keys work as soon as the bar is shown.
  QTest::keyClick(window_.get(), Qt::Key_PageDown);
  QCOMPARE(player().sceneIndex(), 1);
  QVERIFY(player().positionText().startsWith(QStringLiteral("Scene 2 of ")));
  QCOMPARE(player().narrationText(), lesson.scenes[1].narration);

  QTest::keyClick(window_.get(), Qt::Key_R);
  QVERIFY(player().revealed());
  QCOMPARE(player().answerText(), QStringLiteral("Answer: %1").arg(lesson.scenes[1].question->answer));
  // The reveal moved the cell to its last token.
  QCOMPARE(explore_->currentView().controller().position(), explore_->currentView().controller().count());
  QTest::keyClick(window_.get(), Qt::Key_R);
  QVERIFY(!player().revealed());
  QVERIFY(player().answerText().isEmpty());
  QCOMPARE(explore_->currentView().controller().position(), 1);

  // Right and Left step inside the scene, on the Explore page, which has the focus.
  QVERIFY(explore_->isAncestorOf(QApplication::focusWidget()) || QApplication::focusWidget() == explore_);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
  QCOMPARE(explore_->currentView().controller().position(), 2);
  QCOMPARE(player().sceneIndex(), 1);

  QTest::keyClick(window_.get(), Qt::Key_PageUp);
  QCOMPARE(player().sceneIndex(), 0);
  QTest::keyClick(window_.get(), Qt::Key_PageUp);  // the first scene stays
  QCOMPARE(player().sceneIndex(), 0);
  // A new scene starts unrevealed.
  QTest::keyClick(window_.get(), Qt::Key_R);
  QTest::keyClick(window_.get(), Qt::Key_PageDown);
  QVERIFY(!player().revealed());
}

void TestLessonPlayer::everyBundledSceneShowsItsContent() {
  const Lesson lesson = readLesson(QStringLiteral("section3"));
  LessonStage stage(*window_);
  for (const LessonScene& scene : lesson.scenes) {
    if (scene.onEfficiencyPage()) continue;  // efficiencySceneStartsAShortRun
    for (const bool revealed : {false, true}) {
      if (revealed && !scene.question) continue;
      const QString what = scene.id + (revealed ? QStringLiteral(" revealed") : QString());
      stage.show(scene, revealed);
      QCOMPARE(window_->currentPage(), static_cast<Page*>(explore_));
      QCOMPARE(explore_->currentView().id(), scene.view);
      const QImage picture = explore_->renderStage();
      QVERIFY2(distinctColours(picture) > 20, qPrintable(what));
      QVERIFY2(foregroundShare(picture) > 0.05, qPrintable(what));
      QVERIFY2(!explore_->caption().isEmpty(), qPrintable(what));
      const ExploreScene shown = scene.exploreScene(revealed);
      const int count = explore_->currentView().controller().count();
      QCOMPARE(explore_->currentView().controller().position(), shown.step < 0 ? count : shown.step);
      // Every term the scene lights is in the formula it shows.
      QCOMPARE(explore_->formulaPanel().litTermsFound(), shown.litTerms);
    }
  }
}

void TestLessonPlayer::efficiencySceneStartsAShortRun() {
  window_->openLesson(QStringLiteral("section3"));
  const int last = int(player().lesson().scenes.size()) - 1;
  const LessonScene& scene = player().lesson().scenes[last];
  QVERIFY(scene.onEfficiencyPage());
  QSignalSpy finished(efficiency_, &EfficiencyPage::runFinished);
  player().showScene(last);
  QCOMPARE(window_->currentPage(), static_cast<Page*>(efficiency_));
  QVERIFY(efficiency_->isRunning());
  QCOMPARE(efficiency_->choice().tokens, scene.efficiency.tokens);
  QCOMPARE(efficiency_->choice().model.d_model, scene.efficiency.model.d_model);
  // The reveal shows the answer and leaves the run alone.
  QTest::keyClick(window_.get(), Qt::Key_R);
  QVERIFY(player().answerText().startsWith(QStringLiteral("Answer: ")));
  QVERIFY(efficiency_->isRunning());
  QVERIFY(finished.wait(kRunGuardMs));
  QVERIFY(efficiency_->result().has_value());
  QCOMPARE(long(efficiency_->result()->samples.back().tokens), long(scene.efficiency.tokens));
}

// The lesson's short run must not become the user's saved Efficiency settings.
void TestLessonPlayer::closingGivesTheEfficiencyPageItsChoicesBack() {
  EfficiencyChoice users = efficiency_->choice();
  users.tokens = 12288;
  efficiency_->setChoice(users);
  window_->openLesson(QStringLiteral("section3"));
  const int last = int(player().lesson().scenes.size()) - 1;
  QSignalSpy finished(efficiency_, &EfficiencyPage::runFinished);
  player().showScene(last);
  QCOMPARE(efficiency_->choice().tokens, player().lesson().scenes[last].efficiency.tokens);
  QVERIFY(finished.wait(kRunGuardMs));
  player().findChild<QPushButton*>(QStringLiteral("lessonClose"))->click();
  QCOMPARE(efficiency_->choice().tokens, users.tokens);
}

void TestLessonPlayer::closingHidesTheBar() {
  window_->openLesson(QStringLiteral("section3"));
  QSignalSpy closed(&player(), &LessonPlayer::closed);
  player().findChild<QPushButton*>(QStringLiteral("lessonClose"))->click();
  QCOMPARE(closed.count(), 1);
  QVERIFY(!player().isVisible());
  // A closed lesson's keys do nothing.
  const int position = explore_->currentView().controller().position();
  QTest::keyClick(window_.get(), Qt::Key_PageDown);
  QVERIFY(!player().hasLesson());
  QCOMPARE(explore_->currentView().controller().position(), position);
}

void TestLessonPlayer::brokenLessonIsShownWithItsPosition() {
  const std::string path = write_file(folder_, "broken.json",
                                      "{\n  \"format\": \"aaren-studio-lesson\",\n  \"version\": 1,\n"
                                      "  \"title\": \"T\",\n  \"scenes\": [{\"view\": \"tree\"}]\n}\n");
  QVERIFY(window_->findChild<QAction*>(QStringLiteral("openLessonAction")));
  window_->openLesson(QString::fromStdString(path));
  QVERIFY(!player().isVisible());
  QMessageBox* box = nullptr;
  QTRY_VERIFY((box = window_->findChild<QMessageBox*>()) != nullptr);
  QVERIFY2(box->text().contains(QStringLiteral("broken.json:5:23: 'view' must be one of")), qPrintable(box->text()));
  box->close();
}

void TestLessonPlayer::welcomePageAsksForTheBundledLesson() {
  auto* welcome = qobject_cast<WelcomePage*>(window_->pages().first());
  QVERIFY(welcome);
  QSignalSpy requested(welcome, &WelcomePage::lessonRequested);
  auto* button = welcome->findChild<QPushButton*>(QStringLiteral("lesson-section3"));
  QVERIFY(button);
  QCOMPARE(button->text(), QStringLiteral("Attention as an RNN in 20 minutes"));
  button->click();
  QCOMPARE(requested.count(), 1);
  QCOMPARE(requested.first().first().toString(), QStringLiteral("section3"));
}

QTEST_MAIN(TestLessonPlayer)
#include "tst_lesson_player.moc"
