#include "ui/lesson/lesson_stage.hpp"

#include <QMessageBox>
#include <exception>
#include <stdexcept>

#include "ui/explore/explore_page.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/wording/growth_wording.hpp"

namespace aaren::ui {

namespace {

template <class PageType>
PageType* findPage(const MainWindow& window) {
  for (Page* page : window.pages())
    if (auto* found = qobject_cast<PageType*>(page)) return found;
  return nullptr;
}

}  // namespace

LessonStage::LessonStage(MainWindow& window, QObject* parent) : QObject(parent), window_(window) {}

ExplorePage* LessonStage::explorePage() const { return findPage<ExplorePage>(window_); }

EfficiencyPage* LessonStage::efficiencyPage() const { return findPage<EfficiencyPage>(window_); }

Page* LessonStage::pageFor(const LessonScene& scene) const {
  Page* page = scene.onEfficiencyPage() ? static_cast<Page*>(efficiencyPage()) : static_cast<Page*>(explorePage());
  if (!page)
    throw std::runtime_error(tr("the scene \"%1\" needs the %2 page, which this window does not have")
                                 .arg(scene.title, scene.onEfficiencyPage() ? tr("Efficiency") : tr("Explore"))
                                 .toStdString());
  return page;
}

void LessonStage::show(const LessonScene& scene, bool revealed) {
  Page* page = pageFor(scene);
  if (!scene.onEfficiencyPage()) {
    leave();
    auto* explore = static_cast<ExplorePage*>(page);
    explore->applyScene(scene.exploreScene(revealed));
    explore->setLessonShown(true);
    window_.showPage(explore->id());
    explore->setFocus(Qt::OtherFocusReason);
    return;
  }
  auto* efficiency = static_cast<EfficiencyPage*>(page);
  efficiency->setControlsShown(false);
  window_.showPage(efficiency->id());
  // A reveal only shows the answer in the bar; the run started on arrival goes on, or stays shown.
  if (revealed || efficiency->isRunning()) return;
  if (!usersChoice_) usersChoice_ = efficiency->choice();
  efficiency->setChoice(scene.efficiency);
  // The answer says what this run measured, once it has (onEfficiencyRunFinished).
  connect(efficiency, &EfficiencyPage::runFinished, this, &LessonStage::onEfficiencyRunFinished, Qt::UniqueConnection);
  efficiency->start();
  runStartedHere_ = efficiency->isRunning();
  if (runStartedHere_)
    window_.lessonPlayer().setMeasurement(
        tr("Measured here: the run is still going; its fitted exponents appear here when it ends."));
  if (!runStartedHere_)
    throw std::invalid_argument(
        tr("the Efficiency page did not start the scene's run; its status line says why").toStdString());
}

void LessonStage::onEfficiencyRunFinished() {
  LessonPlayer& player = window_.lessonPlayer();
  EfficiencyPage* efficiency = efficiencyPage();
  if (!runStartedHere_ || !efficiency || !efficiency->result() || !player.hasLesson() ||
      !player.currentScene().onEfficiencyPage())
    return;
  player.setMeasurement(measuredGrowthAnswer(*efficiency->result()));
}

void LessonStage::leave() {
  EfficiencyPage* efficiency = efficiencyPage();
  if (efficiency) efficiency->setControlsShown(true);
  if (runStartedHere_ && efficiency && efficiency->isRunning()) efficiency->stop();
  runStartedHere_ = false;
}

void LessonStage::end() {
  leave();
  // Outside a lesson there is no open question: the Explore page shows everything again.
  if (ExplorePage* explore = explorePage()) {
    explore->setAnswerWithheld(false);
    explore->setLessonShown(false);
  }
  if (EfficiencyPage* efficiency = efficiencyPage(); efficiency && usersChoice_) {
    efficiency->setChoice(*usersChoice_);
    // The lesson's short run goes with the lesson: left on the page, its charts and summary would
    // sit under the user's own settings as if they had measured them. A run being stopped
    // reports its samples once it has ended; they are forgotten then.
    if (!efficiency->isRunning()) {
      efficiency->clearResult();
    } else {
      connect(efficiency, &EfficiencyPage::runFinished, efficiency, &EfficiencyPage::clearResult,
              Qt::SingleShotConnection);
      connect(efficiency, &EfficiencyPage::runFailed, efficiency, &EfficiencyPage::clearResult,
              Qt::SingleShotConnection);
    }
  }
  usersChoice_.reset();
}

void LessonStage::showInteractively(const LessonScene& scene, bool revealed) {
  try {
    show(scene, revealed);
  } catch (const std::exception& error) {
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot show the scene"), QString::fromUtf8(error.what()),
                                QMessageBox::Ok, &window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  }
}

}  // namespace aaren::ui
