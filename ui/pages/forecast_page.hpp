#pragma once
// The Forecast page: for a run (or both models of a side-by-side run), the look-back history, the
// truth and each model's forecast on one chart in the data's original units; a slider moves
// through the test windows and, at its end, the forecast past the last row, dated as the data
// continues (exported as CSV); a table gives each model's MSE and MAE over all test windows in the
// data's units and scaled (as the literature reports them), beside the two naive baselines. Loading a run (reading its data and
// evaluating every test window) happens on a worker thread. A run of event models is shown by the
// EventForecastView instead: the next event's predicted density, one test event at a time; a
// classification run by the ClassifyResultsView (confusion matrix, per-class accuracy, streaming); a
// Decision Transformer run by the ActView (its models acting in the environment, step by step).
#include <functional>
#include <memory>
#include <vector>

#include "ui/charts/row_axis.hpp"
#include "ui/page.hpp"
#include "ui/run_list.hpp"
#include "ui/workers/run_forecast_loader.hpp"

class QComboBox;
class QLabel;
class QLineSeries;
class QPushButton;
class QSlider;
class QStackedWidget;
class QTableWidget;
class QToolButton;

namespace aaren::ui {

class BackgroundJob;
class ChartPanel;
class ClassifyResultsView;
class ActView;
class CurrentDataset;
class EventForecastView;
class FittedTable;
class MessageBar;

class ForecastPage : public Page {
  Q_OBJECT

 public:
  explicit ForecastPage(CurrentDataset* dataset, QWidget* parent = nullptr);

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;
  QList<ChartPanel*> charts() const override;  // of the view shown: forecasts, or the next event

  ChartPanel* forecastChart() const { return chart_; }
  QSlider* windowSlider() const { return slider_; }
  QTableWidget* metricsTable() const;
  MessageBar* messageBar() const { return messageBar_; }
  EventForecastView* eventForecastView() const { return eventView_; }
  ClassifyResultsView* classifyView() const { return classifyView_; }
  ActView* actView() const { return actView_; }
  bool isLoading() const;  // a run, or the list of runs
  std::shared_ptr<const RunForecastSet> forecastSet() const { return set_; }
  QString shownRun() const override;
  int currentWindow() const;  // a test window, or forecastSet()->testWindows for the future
  bool showsFuture() const;

  void setRunsFolder(const QString& folder);  // lists its runs in the background
  // Shows a loaded run at once, at test window `window` (-1: the last one; testWindows: the future).
  void showForecasts(std::shared_ptr<const RunForecastSet> set, int window = -1);

 public slots:
  void openRun(const QString& runDir);  // in the background; runLoaded() follows
  // The runs to offer, as listed elsewhere (the Train page's run list), without reading them again.
  void showRunListing(const aaren::ui::SharedRunListing& listing);
  void showWindow(int window);
  // Writes the forecast past the end as CSV; false, with the reason in the message bar, when there
  // is none to write.
  bool exportFutureForecast(const QString& path);

 signals:
  void runLoaded(bool ok);

 private:
  QWidget* buildTopBar();
  QWidget* buildWindowBar();
  void browseRun();
  void fillRunChoices();
  void fillMetrics();  // for the channel shown
  void showFuture(int channel);
  void browseFutureExport();
  // The Channel box offers `channels` (none: hidden, for an event run or no run).
  void showChannels(const QStringList& channels, const QString& target = {});

  CurrentDataset* dataset_;
  BackgroundJob* loader_;
  BackgroundJob* lister_;  // of the runs folder's runs, when the page lists them itself
  QString runsFolder_;
  SharedRunListing listing_;
  std::shared_ptr<const RunForecastSet> set_;
  QString shownRun_;  // the run folder the page shows, of either task; the Run box names it
  RowAxis axis_;      // of the run's data: where each row sits on the chart, and how dates read
  std::vector<qreal> futureX_;  // (horizon) where the steps past the end sit
  QLineSeries* history_ = nullptr;
  QLineSeries* truth_ = nullptr;
  std::vector<QLineSeries*> forecasts_;  // one per model

  MessageBar* messageBar_ = nullptr;
  QComboBox* runs_ = nullptr;
  QComboBox* channel_ = nullptr;
  QLabel* channelLabel_ = nullptr;
  QLabel* runSummary_ = nullptr;
  ChartPanel* chart_ = nullptr;
  QSlider* slider_ = nullptr;
  QToolButton* previous_ = nullptr;
  QToolButton* next_ = nullptr;
  QLabel* windowLabel_ = nullptr;
  FittedTable* metrics_ = nullptr;
  QLabel* metricsNote_ = nullptr;
  QPushButton* showFuture_ = nullptr;
  QPushButton* exportFuture_ = nullptr;
  QStackedWidget* views_ = nullptr;  // the forecasting charts, or the event view
  EventForecastView* eventView_ = nullptr;
  ClassifyResultsView* classifyView_ = nullptr;
  ActView* actView_ = nullptr;
  // The view of each task whose runs are not forecasters' (its run-folder task name), what opens a
  // run in it, and the line above it ("%1" the run's name).
  struct TaskRunView {
    std::string task;
    QWidget* view = nullptr;
    std::function<void(const QString& runDir)> open;
    QString summary;
  };
  std::vector<TaskRunView> taskViews_;
};

}  // namespace aaren::ui
