#include "ui/state/stream_run_clock.hpp"

#include <QTimer>
#include <QVariant>
#include <algorithm>

#include "ui/workers/background_job.hpp"
#include "ui/workers/stream_worker.hpp"

namespace aaren::ui {

namespace {

constexpr int kCalibrationDelayMs = 400;  // settings typed digit by digit are calibrated once
constexpr int kCountdownMs = 1000;

// The settings a step's cost depends on: the model's size and where it runs (not N or repeats).
QString stepCostKey(const bench::StreamBenchOptions& o) {
  return QStringLiteral("%1 %2 %3 %4 %5")
      .arg(o.model.d_model)
      .arg(o.model.heads)
      .arg(o.model.layers)
      .arg(o.model.d_ff)
      .arg(o.stepper ? QStringLiteral("device") : QStringLiteral("cpu"));
}

}  // namespace

StreamRunClock::StreamRunClock(QObject* parent)
    : QObject(parent), job_(new BackgroundJob(this)), delay_(new QTimer(this)), countdown_(new QTimer(this)) {
  delay_->setSingleShot(true);
  delay_->setInterval(kCalibrationDelayMs);
  connect(delay_, &QTimer::timeout, this, &StreamRunClock::calibrate);
  countdown_->setInterval(kCountdownMs);
  connect(countdown_, &QTimer::timeout, this, &StreamRunClock::remainingChanged);
  connect(job_, &BackgroundJob::succeeded, this, [this](const QVariant& model) {
    model_ = model.value<bench::StreamTimeModel>();
    modelKey_ = calibratingKey_;
    emit estimateReady();
  });
  connect(job_, &BackgroundJob::failed, this, &StreamRunClock::calibrationFailed);
}

StreamRunClock::~StreamRunClock() {
  if (stop_) stop_->store(true);
}

void StreamRunClock::settingsChanged(const bench::StreamBenchOptions& options) {
  pending_ = options;
  const QString key = stepCostKey(options);
  if (running_ || (model_ && key == modelKey_) || (job_->isRunning() && key == calibratingKey_)) return;
  delay_->start();
}

bool StreamRunClock::isCalibrating() const { return delay_->isActive() || job_->isRunning(); }

std::optional<double> StreamRunClock::estimatedSeconds(const bench::StreamBenchOptions& options) const {
  if (!model_ || modelKey_ != stepCostKey(options)) return std::nullopt;
  return bench::estimated_run_seconds(options, *model_);
}

void StreamRunClock::calibrate() {
  if (running_) return;
  if (stop_) stop_->store(true);
  stop_ = std::make_shared<std::atomic<bool>>(false);
  calibratingKey_ = stepCostKey(pending_);
  emit calibrationStarted();
  job_->start(streamCalibrationWork(pending_, stop_));
}

void StreamRunClock::runStarted(const bench::StreamBenchOptions& options) {
  delay_->stop();
  if (stop_) stop_->store(true);
  job_->cancel();
  running_ = true;
  runOptions_ = options;
  remainingAtMark_.reset();
  if (model_ && modelKey_ == stepCostKey(options)) remainingAtMark_ = bench::remaining_run_seconds(options, *model_, {});
  sinceMark_.start();
  countdown_->start();
  emit remainingChanged();
}

void StreamRunClock::sampleMeasured(const std::vector<bench::StreamSample>& firstPass) {
  if (!running_) return;
  const bool calibrated = model_ && modelKey_ == stepCostKey(runOptions_);
  if (!calibrated && firstPass.size() < bench::kSamplesToRefit) return;
  remainingAtMark_ =
      bench::remaining_run_seconds(runOptions_, calibrated ? *model_ : bench::StreamTimeModel{}, firstPass);
  sinceMark_.restart();
  emit remainingChanged();
}

void StreamRunClock::runEnded(const std::vector<bench::StreamSample>& samples) {
  running_ = false;
  countdown_->stop();
  remainingAtMark_.reset();
  // A whole run times the steps better than any calibration.
  if (samples.size() >= bench::kSamplesToRefit) {
    model_ = bench::fit_stream_time(samples);
    modelKey_ = stepCostKey(runOptions_);
  }
}

std::optional<double> StreamRunClock::remainingSeconds() const {
  if (!running_ || !remainingAtMark_) return std::nullopt;
  return std::max(0.0, *remainingAtMark_ - double(sinceMark_.elapsed()) / 1000.0);
}

}  // namespace aaren::ui
