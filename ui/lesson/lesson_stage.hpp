#pragma once
// Shows a lesson's scenes on the window's pages: a scan, cell or Figure 1 scene on the Explore
// page (ExplorePage::applyScene), the efficiency scene as a short live run on the Efficiency page,
// started through the page's own controls, and an act scene as a Decision Transformer run acting
// on the Forecast page (its newest reinforcement-learning run unless the scene names one). The lesson bar (LessonPlayer) says which scene; this
// puts it on the screen, for the class and for exports alike.
#include <QObject>
#include <optional>

#include "ui/lesson/lesson.hpp"
#include "ui/state/efficiency_choice.hpp"

namespace aaren::ui {

class EfficiencyPage;
class ExplorePage;
class ForecastPage;
class MainWindow;
class Page;

class LessonStage : public QObject {
  Q_OBJECT

 public:
  explicit LessonStage(MainWindow& window, QObject* parent = nullptr);

  // Shows the scene on its page and makes that page current; an Explore scene takes the keyboard
  // focus there, so Right and Left step at once. Throws std::runtime_error when the window lacks
  // the page, std::invalid_argument when the page refuses the scene.
  void show(const LessonScene& scene, bool revealed);
  // Stops a run that the efficiency scene started (what it measured stays on the page).
  void leave();
  // When the lesson closes: leave(), and the Efficiency page gets back the choices the user had
  // before the lesson's short run replaced them (they are the ones the next session restores).
  void end();

  ExplorePage* explorePage() const;
  EfficiencyPage* efficiencyPage() const;
  ForecastPage* forecastPage() const;
  // The page the scene is shown on.
  Page* pageFor(const LessonScene& scene) const;

 public slots:
  // show(), with a failure reported in a message box instead of thrown.
  void showInteractively(const aaren::ui::LessonScene& scene, bool revealed);

 private:
  // The efficiency scene's answer gets what its run measured (ui/wording/growth_wording.hpp).
  void onEfficiencyRunFinished();

  MainWindow& window_;
  bool runStartedHere_ = false;
  std::optional<EfficiencyChoice> usersChoice_;  // set while a lesson's choice replaces it
};

}  // namespace aaren::ui
