#pragma once
// The Efficiency page: the paper's Figure 5 measured live on this machine. The user picks a model
// size and a number of tokens N; both models take the tokens one step() at a time on a worker
// thread while four charts fill in (state memory, cumulative time, per-token latency, the time
// ratio). When the run ends, or is stopped, the fitted growth is written on the charts, and the
// measurements export as CSV and as a two-panel "Figure 5". The controls are remembered between
// sessions. Before Start the page says how long a run will take, from a short calibration of both
// models' steps at the chosen size (core/bench/stream_time_estimate.hpp); while it runs, how long is left.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/bench/stream_bench.hpp"
#include "ui/page.hpp"
#include "ui/state/efficiency_choice.hpp"
#include "ui/stream_charts.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace aaren::ui {

class BackgroundJob;
class StreamRunClock;

class EfficiencyPage : public Page {
  Q_OBJECT

 public:
  explicit EfficiencyPage(QWidget* parent = nullptr);
  ~EfficiencyPage() override;  // stops a running measurement without waiting for it

  QString id() const override;
  QString title() const override;
  QString subtitle() const override;
  QIcon icon() const override;
  QList<ChartPanel*> charts() const override;

  // The settings of the controls; setOptions() shows the model size, tokens and repeats given,
  // and the GPU when the options stream on a device and one can be used.
  bench::StreamBenchOptions options() const;
  // The models whose boxes are ticked, in kModelKinds order.
  std::vector<ModelKind> chosenModels() const;
  void setOptions(const bench::StreamBenchOptions& options);
  // The same as a plain value; setChoice() shows CUDA only when a GPU can be used.
  EfficiencyChoice choice() const;
  void setChoice(const EfficiencyChoice& choice);

  // The model size, tokens N, repeats and device.
  void restoreSession(const Settings& settings) override;
  void saveSession(Settings& settings) const override;

  bool isRunning() const { return running_; }
  // What the last finished or stopped run measured: medians over its repeats.
  const std::optional<bench::StreamBenchResult>& result() const { return result_; }
  const StreamCharts& streamCharts() const { return charts_; }
  // Seconds a run of the present settings takes: empty until the calibration for this model size
  // and device has measured its steps.
  std::optional<double> estimatedSeconds() const;
  // Seconds left of the run going on now; empty when none runs or nothing is known yet.
  std::optional<double> remainingSeconds() const;

  // Both throw std::runtime_error naming the file and the reason, or saying nothing is measured yet.
  void exportMeasurements(const QString& csvPath) const;  // core stream_csv: one row per sample
  void exportFigure5(const QString& path) const;          // .png, .svg or .pdf

 public slots:
  void start();  // a mistake in the settings is shown on the page and nothing starts
  void stop();   // keeps what was measured; runFinished() follows
  // Forgets what the last run measured (charts, summary, exports), as before any run; nothing
  // while a run goes on.
  void clearResult();
  // The settings column beside the charts; a lesson's scene folds it away, so that the charts get
  // the width (its run is set by the lesson).
  void setControlsShown(bool shown);
  bool controlsShown() const;

 signals:
  void runFinished();
  void runFailed(const QString& message);
  void runTimeEstimated(double seconds);      // before Start, once a calibration has measured the steps
  void remainingTimeChanged(double seconds);  // while running, at each sample and each second

 protected:
  void showEvent(QShowEvent* event) override;  // calibrates for the run-time estimate when first needed

 private:
  QWidget* buildControls();
  QWidget* buildCharts();
  void setRunning(bool running);
  void updateEstimate();
  void showRunTime();
  void showRemaining();
  void onSampleMeasured(const bench::StreamSample& sample);
  void onFinished(const bench::StreamBenchResult& result);
  void onFailed(const QString& message);
  void refreshCharts();
  void showSummary(const bench::StreamBenchResult& result);
  void exportMeasurementsInteractively();
  void exportFigure5Interactively();
  // Writes through `write`, then remembers the folder and says so, or shows why it could not.
  void writeExport(const QString& title, const QString& path, const std::function<void(const QString&)>& write);
  void report(const QString& message);

  StreamCharts charts_;
  QSpinBox* dModel_ = nullptr;
  QSpinBox* heads_ = nullptr;
  QSpinBox* layers_ = nullptr;
  QSpinBox* dFf_ = nullptr;
  QSpinBox* tokens_ = nullptr;
  QSpinBox* repeats_ = nullptr;
  QComboBox* device_ = nullptr;
  QCheckBox* modelBoxes_[std::size(kModelKinds)] = {};  // which models stream, in kModelKinds order
  QLabel* estimate_ = nullptr;
  QLabel* runTime_ = nullptr;
  QPushButton* startButton_ = nullptr;
  QPushButton* stopButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* summary_ = nullptr;
  QPushButton* exportCsvButton_ = nullptr;
  QPushButton* exportFigureButton_ = nullptr;
  QTimer* refreshTimer_ = nullptr;
  QWidget* controls_ = nullptr;

  BackgroundJob* job_ = nullptr;
  std::shared_ptr<std::atomic<bool>> stopFlag_;
  bool running_ = false;
  bench::StreamBenchOptions runOptions_;
  std::vector<bench::StreamSample> liveSamples_;  // the first pass, as it arrives
  bool chartsBehind_ = false;                     // liveSamples_ has points the charts lack yet
  std::optional<bench::StreamBenchResult> result_;
  StreamRunClock* clock_ = nullptr;  // the run-time estimate and the time left
};

}  // namespace aaren::ui
