// The lesson player in the main window, offscreen: the bar shows the title, "Scene k of n", the
// narration and the question, PageDown / PageUp / R work from the moment it is shown, every
// bundled scene puts its content on the page (a picture that is not blank, the page's own caption
// and the lit formula terms), the efficiency scene starts a short real run, and a broken lesson
// opened from the window is shown with its line and column instead of crashing.
#include <QLabel>
#include <QLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QtTest>

#include "support/test_files.hpp"
#include "ui/appearance.hpp"
#include "ui/chart_panel.hpp"
#include "ui/explore/cell_tab.hpp"
#include "ui/explore/softmax_bars.hpp"
#include "ui/explore/explore_page.hpp"
#include "ui/explore/explore_view.hpp"
#include "ui/explore/formula_panel.hpp"
#include "ui/explore/scan_run.hpp"
#include "ui/explore/scan_tab.hpp"
#include "ui/explore/scan_tree_view.hpp"
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
  void closingDuringTheRunForgetsItOnceStopped();
  void revealingMovesNothingBelowTheBar_data();
  void revealingMovesNothingBelowTheBar();
  void noSceneShowsItsAnswerBeforeTheReveal();
  void closingHidesTheBar();
  void lessonNameGivesWayBeforeTheSceneTitleWraps();
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
  QVERIFY(efficiency_->result().has_value());
  // The scene gives the charts the page's width; the settings come back with the lesson's end.
  QVERIFY(!efficiency_->controlsShown());
  player().findChild<QPushButton*>(QStringLiteral("lessonClose"))->click();
  QCOMPARE(efficiency_->choice().tokens, users.tokens);
  QVERIFY(efficiency_->controlsShown());
  // The lesson's measurement goes with it: under the user's settings the page shows no run that
  // they did not make, and writes no summary of it.
  QVERIFY(!efficiency_->result().has_value());
  QVERIFY(efficiency_->findChild<QLabel*>(QStringLiteral("summary"))->text().isEmpty());
  for (const ChartPanel* chart : efficiency_->charts()) QVERIFY(chart->showsPlaceholder());
}

// Closed while the lesson's run still goes on: what the stopped run reports is forgotten too.
void TestLessonPlayer::closingDuringTheRunForgetsItOnceStopped() {
  window_->openLesson(QStringLiteral("section3"));
  const int last = int(player().lesson().scenes.size()) - 1;
  QSignalSpy finished(efficiency_, &EfficiencyPage::runFinished);
  player().showScene(last);
  QVERIFY(efficiency_->isRunning());
  player().closeLesson();
  QVERIFY(finished.wait(kRunGuardMs));
  QVERIFY(!efficiency_->result().has_value());
}

// Revealing the answer must not move the page below the bar: charts would shrink and elide.
void TestLessonPlayer::revealingMovesNothingBelowTheBar_data() {
  QTest::addColumn<bool>("presenter");
  QTest::newRow("window") << false;
  QTest::newRow("presenter") << true;
}

void TestLessonPlayer::revealingMovesNothingBelowTheBar() {
  QFETCH(bool, presenter);
  Appearance::instance().setPresenterMode(presenter);
  const auto normal = qScopeGuard([] { Appearance::instance().setPresenterMode(false); });
  window_->resize(1280, 720);
  window_->openLesson(QStringLiteral("section3"));
  for (int i = 0; i < player().lesson().scenes.size(); ++i) {
    if (player().lesson().scenes[i].onEfficiencyPage()) continue;
    player().showScene(i);
    QCoreApplication::processEvents();
    window_->layout()->activate();
    const QRect before = explore_->geometry();
    const QPoint beforeOnWindow = explore_->mapTo(window_.get(), QPoint(0, 0));
    player().toggleReveal();
    QCoreApplication::processEvents();
    window_->layout()->activate();
    QVERIFY(player().revealed());
    QCOMPARE(explore_->mapTo(window_.get(), QPoint(0, 0)), beforeOnWindow);
    QCOMPARE(explore_->geometry().size(), before.size());
  }
}

// Before the reveal nothing on the page answers the scene's question; the reveal shows it.
void TestLessonPlayer::noSceneShowsItsAnswerBeforeTheReveal() {
  window_->openLesson(QStringLiteral("section3"));
  const auto sceneNamed = [this](const QString& id) {
    for (int i = 0; i < player().lesson().scenes.size(); ++i)
      if (player().lesson().scenes[i].id == id) player().showScene(i);
    QCOMPARE(player().currentScene().id, id);
  };
  CellTab& cell = explore_->cellTab();

  // Scene 1: which token has the largest weight, and how large: the bars stand without numbers.
  sceneNamed(QStringLiteral("softmax"));
  QVERIFY(cell.bars().content().weightsWithheld);
  player().toggleReveal();
  QVERIFY(!cell.bars().content().weightsWithheld);

  // Scene 2: how many numbers the state holds.
  sceneNamed(QStringLiteral("rnn-view"));
  QVERIFY2(!explore_->caption().contains(QStringLiteral("numbers of state")), qPrintable(explore_->caption()));
  player().toggleReveal();
  QVERIFY(explore_->caption().contains(QStringLiteral("3 numbers of state")));

  // Scene 4: which outputs stay right; the banner says they are NaN.
  sceneNamed(QStringLiteral("underflow"));
  QVERIFY(cell.undefinedNotice().isEmpty());
  player().toggleReveal();
  QVERIFY(cell.undefinedNotice().contains(QStringLiteral("NaN")));

  // Scene 5: its question frame shows the charts waiting for token 1, not "No data yet".
  sceneNamed(QStringLiteral("printed-typo"));
  for (const ChartPanel* chart : cell.cellCharts())
    if (chart->isVisible() && chart->showsPlaceholder())
      QVERIFY2(!chart->placeholderText().contains(QStringLiteral("No data")), qPrintable(chart->placeholderText()));

  // Scenes 9 and 10: which prefixes the up-sweep completes, how many steps and combines: no box is
  // drawn for a step still to come, where they could be counted. With show ahead they are.
  for (const QString& id : {QStringLiteral("brent-kung"), QStringLiteral("work-depth")}) {
    sceneNamed(id);
    QCOMPARE(explore_->currentView().controller().position(), 0);
    const auto inkInFutureBoxes = [this] {
      int ink = 0;
      for (ScanTreeView* tree : explore_->scanTab().trees()) {
        const QImage image = tree->grab().toImage();
        // The most common colour is the background (a focused tree's frame is not).
        QHash<QRgb, int> counts;
        for (int y = 0; y < image.height(); y += 3)
          for (int x = 0; x < image.width(); x += 3) ++counts[image.pixel(x, y)];
        QRgb background = 0;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
          if (it.value() > counts.value(background)) background = it.key();
        const ScanRun& run = *tree->run();
        for (int level = 1; level <= run.stepCount(); ++level)
          for (const aaren::ScanCombine& combine : run.combines(level)) {
            const QRect box = tree->boxOf({level, combine.right}).toAlignedRect().adjusted(-2, -2, 2, 2);
            for (int y = box.top(); y <= box.bottom(); ++y)
              for (int x = box.left(); x <= box.right(); ++x)
                ink += image.valid(x, y) && image.pixel(x, y) != background ? 1 : 0;
          }
      }
      return ink;
    };
    QCOMPARE(inkInFutureBoxes(), 0);
    explore_->setShowAhead(true);
    QVERIFY(inkInFutureBoxes() > 0);
    explore_->setShowAhead(false);
  }

  // Scene 11: how each state grows; the formula's note says it per layer.
  sceneNamed(QStringLiteral("transformer-rnn"));
  QVERIFY(!explore_->formulaHtml().contains(QStringLiteral("per layer")));
  player().toggleReveal();
  QVERIFY(explore_->formulaHtml().contains(QStringLiteral("per layer")));

  // Closing the lesson shows everything again.
  sceneNamed(QStringLiteral("softmax"));
  player().closeLesson();
  QVERIFY(!cell.bars().content().weightsWithheld);
}

// On a narrow screen the scene's title keeps one line and the lesson's name gives way; where there
// is room both show.
void TestLessonPlayer::lessonNameGivesWayBeforeTheSceneTitleWraps() {
  window_->openLesson(QStringLiteral("section3"));
  const QLabel* name = player().findChild<QLabel*>(QStringLiteral("lessonTitle"));
  const QLabel* position = player().findChild<QLabel*>(QStringLiteral("lessonPosition"));
  QVERIFY(name && position);
  window_->resize(1920, 1080);
  QTRY_COMPARE(player().width() > 1600, true);  // beside the sidebar
  QVERIFY(name->isVisible());
  Appearance::instance().setPresenterMode(true);
  const auto backToNormal = qScopeGuard([] { Appearance::instance().setPresenterMode(false); });
  window_->resize(1280, 720);
  QTRY_COMPARE(player().width() <= 1280, true);
  QTRY_VERIFY(!name->isVisible());
  // The title then fits on one line, once the bar has laid out again.
  QTRY_VERIFY2(position->fontMetrics().horizontalAdvance(position->text()) <= position->width(),
               qPrintable(QStringLiteral("%1 px for %2")
                              .arg(position->fontMetrics().horizontalAdvance(position->text()))
                              .arg(position->width())));
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
