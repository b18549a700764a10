#pragma once
// The Act view (docs/DESIGN.md section 11): a Decision Transformer run's models acting side by side
// in their environment for one seeded episode, shown by the Forecast page when the run chosen there
// is a reinforcement-learning run. Each model's episode is acted on a worker thread as core's
// evaluation acts (ui/rl/act_results.hpp), then replayed step by step with play, step and speed
// (Space, Left, Right, Home, End, + and -, as on the Explore page): the environment drawn at that
// step with the action as an arrow, the return so far and the return-to-go asked for, and charts
// of each model's measured time per step, the state it keeps and its return-to-go up to that step
// (a stream's constant state against the Transformer's growing cache). The Scores tab puts this
// episode beside the run's own evaluation after training. The seed, the act mode (each model's
// own, window or stream) and the target return can be changed and the episode acted again.
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "ui/chart_export.hpp"
#include "ui/rl/act_results.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QXYSeries;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class EnvironmentPicture;
class FittedTable;
class MessageBar;
class StepBar;
class StepController;

class ActView : public QWidget {
  Q_OBJECT

 public:
  explicit ActView(MessageBar* messageBar, QWidget* parent = nullptr);

  QList<ChartPanel*> charts() const;  // of the tab shown
  ChartPanel* timeChart() const { return time_; }
  ChartPanel* stateChart() const { return state_; }
  ChartPanel* returnChart() const { return toGo_; }
  FittedTable* scoresTable() const { return scores_; }
  QList<EnvironmentPicture*> pictures() const { return pictures_; }
  StepController* controller() const { return controller_; }
  QSpinBox* seedSpin() const { return seed_; }
  QComboBox* modeCombo() const { return mode_; }
  QDoubleSpinBox* targetSpin() const { return target_; }
  QTabWidget* tabs() const { return tabs_; }
  // What a picture of the view shows (a lesson's export): the summary, the environments and the
  // tab shown, without the controls.
  QWidget* stage() const { return stage_; }
  QString summary() const;
  bool isLoading() const;
  std::shared_ptr<const ActResults> results() const { return results_; }
  // The time chart's unit, per second: 1e6 (µs), or 1e3 (ms) once a typical step reaches a
  // millisecond, so that its tick labels stay short enough to be drawn whole.
  double timeUnitsPerSecond() const { return timeUnits_; }
  // The settings the next act() uses, from the controls.
  ActSettings settings() const;
  // What a lesson's scene asks for (ui/lesson/lesson.hpp): the act mode (none: each model's own),
  // the seed, and the step the next results open at (none: the start; -1: the episode's end).
  void choose(std::optional<rl::ActMode> mode, int seed, std::optional<int> openAt);
  // The stage as it is now (PNG, SVG or PDF), and the episode as numbered PNG frames, every
  // kFrameEvery-th step and the last; throw std::runtime_error with the path and the reason.
  static constexpr int kFrameEvery = 10;
  void exportStage(const QString& path, ExportFormat format);
  QStringList exportEpisodeFrames(const QString& folder);

 public slots:
  void openRun(const QString& runDir);  // acts with the run's own settings; runLoaded() follows
  void act();                           // the shown run again, with the controls' settings
  void showResults(std::shared_ptr<const ActResults> results);
  void showPosition(int position);      // 0: before the first step; k: k steps taken

 signals:
  void runLoaded(bool ok);

 private:
  void start(const QString& runDir, const ActSettings& settings);
  void chooseStageExport();
  void chooseFramesExport();
  void fillScores();
  void drawCharts(int position);

  MessageBar* messageBar_;
  BackgroundJob* loader_;
  QString runDir_;
  std::shared_ptr<const ActResults> results_;
  StepController* controller_;
  StepBar* stepBar_;
  QLabel* summary_;
  QSpinBox* seed_;
  QComboBox* mode_;
  QDoubleSpinBox* target_;
  QPushButton* actButton_;
  QWidget* stage_;
  QWidget* pictureRow_;
  QList<EnvironmentPicture*> pictures_;
  QTabWidget* tabs_;
  ChartPanel* time_;
  ChartPanel* state_;
  ChartPanel* toGo_;
  FittedTable* scores_;
  std::optional<int> openAt_;
  double timeUnits_ = 1e6;
  // One line per model in each chart, in the results' order.
  QList<QXYSeries*> timeLines_, stateLines_, toGoLines_;
  // Per model, from step 2 on: each step's typical time (core/bench/stream_summary.hpp), which the
  // time chart draws.
  std::vector<std::vector<double>> typicalSeconds_;
};

}  // namespace aaren::ui
