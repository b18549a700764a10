#pragma once
// How long a streaming measurement of the Efficiency page takes, before and while it runs. Before
// Start it calibrates both models' step costs at the chosen size and device off the GUI thread (a
// few hundred steps each, core/bench/stream_time_estimate.hpp), once the settings stop changing;
// while a run goes on, it counts down from the time left at the last sample, and the run's own
// samples replace the calibration once there are enough of them. A finished run is the next
// estimate's calibration.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/bench/stream_time_estimate.hpp"

class QTimer;

namespace aaren::ui {

class BackgroundJob;

class StreamRunClock : public QObject {
  Q_OBJECT

 public:
  explicit StreamRunClock(QObject* parent = nullptr);
  ~StreamRunClock() override;  // ends a calibration without waiting for it

  // Calibrates for `options` soon, unless their step costs are known or being measured.
  void settingsChanged(const bench::StreamBenchOptions& options);
  bool isCalibrating() const;
  // Seconds a run of `options` takes; empty until their step costs are known.
  std::optional<double> estimatedSeconds(const bench::StreamBenchOptions& options) const;

  void runStarted(const bench::StreamBenchOptions& options);  // stops a calibration: it would slow the run
  void sampleMeasured(const std::vector<bench::StreamSample>& firstPass);
  void runEnded(const std::vector<bench::StreamSample>& samples);  // what the run measured, maybe nothing
  // Seconds left of the run; empty when none runs or nothing is known of its steps yet.
  std::optional<double> remainingSeconds() const;

 signals:
  void calibrationStarted();
  void estimateReady();                       // estimatedSeconds() has a value for the last settings
  void calibrationFailed(const QString& message);
  void remainingChanged();                    // at each sample and each second of a run

 private:
  void calibrate();

  BackgroundJob* job_;
  QTimer* delay_;      // calibrates once the settings stop changing
  QTimer* countdown_;
  bench::StreamBenchOptions pending_;
  std::shared_ptr<std::atomic<bool>> stop_;
  std::optional<bench::StreamTimeModel> model_;
  QString modelKey_;        // the size and device model_ was measured for
  QString calibratingKey_;  // those of the calibration under way
  bool running_ = false;
  bench::StreamBenchOptions runOptions_;
  QElapsedTimer sinceMark_;  // since remainingAtMark_ was computed
  std::optional<double> remainingAtMark_;
};

}  // namespace aaren::ui
