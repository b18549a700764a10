#include "ui/lesson/lesson_stage.hpp"

#include <QDir>
#include <QMessageBox>
#include <exception>
#include <stdexcept>

#include "ui/explore/explore_page.hpp"
#include "ui/lesson/lesson_player.hpp"
#include "ui/main_window.hpp"
#include "core/runs/run_catalog.hpp"
#include "ui/pages/efficiency_page.hpp"
#include "ui/pages/forecast_page.hpp"
#include "ui/rl/act_view.hpp"
#include "ui/settings.hpp"
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

ForecastPage* LessonStage::forecastPage() const { return findPage<ForecastPage>(window_); }

Page* LessonStage::pageFor(const LessonScene& scene) const {
  Page* page = scene.onEfficiencyPage()  ? static_cast<Page*>(efficiencyPage())
               : scene.onForecastPage() ? static_cast<Page*>(forecastPage())
                                         : static_cast<Page*>(explorePage());
  if (!page)
    throw std::runtime_error(tr("the scene \"%1\" needs the %2 page, which this window does not have")
                                 .arg(scene.title, scene.onEfficiencyPage()  ? tr("Efficiency")
                                                   : scene.onForecastPage() ? tr("Forecast")
                                                                            : tr("Explore"))
                                 .toStdString());
  return page;
}

namespace {

// The reinforcement-learning run written last into the runs folder.
QString newestDecisionRun() {
  const QString folder = Settings().runsFolder();
  const RunEntry* newest = nullptr;
  const std::vector<RunEntry> runs = list_runs(QDir::toNativeSeparators(folder).toStdString());
  for (const RunEntry& run : runs)
    if (!run.models.empty() && run.models.front().decision() && (!newest || run.modified > newest->modified)) newest = &run;
  if (!newest)
    throw std::invalid_argument(
        QObject::tr("this scene lets trained Decision Transformers act, and %1 holds none yet: on the Data page, "
                    "Reinforcement learning > Generate… a data set, then train on the Train page")
            .arg(QDir::toNativeSeparators(folder))
            .toStdString());
  return QString::fromStdString(newest->dir);
}

}  // namespace

void LessonStage::show(const LessonScene& scene, bool revealed) {
  Page* page = pageFor(scene);
  if (scene.onForecastPage()) {
    leave();
    auto* forecast = static_cast<ForecastPage*>(page);
    const QString run = scene.act.run.isEmpty() ? newestDecisionRun() : scene.act.run;
    forecast->actView()->choose(scene.act.mode, scene.act.seed, scene.act.step.value_or(-1));
    forecast->openRun(run);
    window_.showPage(forecast->id());
    forecast->actView()->setFocus(Qt::OtherFocusReason);
    return;
  }
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
