#pragma once
// What a trained event run predicts, one test event at a time: the events so far, each model's
// density of the next event's time drawn beyond the last event, the actual next event marked, and
// the mark probabilities as bars. The Explore page's transport controls step through the test
// events (play, step, scrub, speed), numbered from 1 as the caption numbers them: position k shows
// the prediction after test event k, position 0 none yet. The time axis follows the data: from the
// events shown to a few mean gaps past the current one (and the actual next event). Below, each
// model's test metrics, with a plain note when its RMSE is many mean gaps long
// (ui/events/event_rmse_note.hpp). Loading a run happens on a worker thread.
#include <QWidget>
#include <memory>

#include "ui/events/event_forecasts.hpp"

class QLabel;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class MessageBar;
class StepBar;
class StepController;

class EventForecastView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kDensityPoints = 240;
  static constexpr int kEventsShown = 12;  // the current event and the ones before it
  static constexpr double kMeanGapsAhead = 4.0;  // how far past the current event the density is drawn

  explicit EventForecastView(MessageBar* messages, QWidget* parent = nullptr);

  ChartPanel* densityChart() const { return density_; }
  ChartPanel* markChart() const { return marks_; }
  StepController* controller() const { return controller_; }
  std::shared_ptr<const EventForecastSet> forecastSet() const { return set_; }
  int currentStep() const;  // index into forecastSet()->steps; -1 when nothing is shown
  QString captionText() const;  // the current event and each model's prediction and metrics
  bool isLoading() const;

  void showForecasts(std::shared_ptr<const EventForecastSet> set);

 public slots:
  void openRun(const QString& runDir);  // in the background; runLoaded() follows

 signals:
  void runLoaded(bool ok);

 private:
  void showPosition(int position);  // 1..steps: the prediction after test event `position`
  void showStep(int step);
  void drawMarks(int step);
  QString metricsText() const;

  MessageBar* messages_;
  BackgroundJob* loader_;
  std::shared_ptr<const EventForecastSet> set_;
  StepController* controller_;
  StepBar* stepBar_;
  QLabel* caption_;
  QLabel* metrics_;
  ChartPanel* density_;
  ChartPanel* marks_;
};

}  // namespace aaren::ui
