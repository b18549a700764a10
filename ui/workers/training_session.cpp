#include "ui/workers/training_session.hpp"

#include <stdexcept>

#include "ui/workers/background_job.hpp"

namespace aaren::ui {

TrainingSession::TrainingSession(QObject* parent)
    : QObject(parent), job_(new BackgroundJob(this)), worker_(std::make_shared<TrainingWorker>()) {
  qRegisterMetaType<aaren::ui::TrainingProgress>();
  qRegisterMetaType<aaren::ui::ModelOutcome>();
  connect(job_, &BackgroundJob::reported, this,
          [this](const QVariant& item) { relay(item.value<TrainingEvent>()); });
  connect(job_, &BackgroundJob::succeeded, this, [this](const QVariant& result) {
    const auto outcome = result.value<TrainingResult>();
    end(outcome.stopped, outcome.error);
  });
  // Only a session being destroyed cancels its job, and training reports its own errors; these
  // two are for completeness.
  connect(job_, &BackgroundJob::failed, this, [this](const QString& message) { end(true, message); });
  connect(job_, &BackgroundJob::cancelled, this, [this] { end(true, {}); });
}

TrainingSession::~TrainingSession() { worker_->requestStop(); }

void TrainingSession::start(const TrainingJob& job) {
  if (running_) throw std::logic_error("a training job is already running");
  worker_->reset();
  running_ = true;
  job_->start([worker = worker_, job](JobContext& context) { return QVariant::fromValue(worker->run(job, context)); });
}

void TrainingSession::pause() {
  if (running_) worker_->requestPause();
}

void TrainingSession::resume() { worker_->requestResume(); }

void TrainingSession::stop() {
  if (running_) worker_->requestStop();
}

void TrainingSession::relay(const TrainingEvent& event) {
  switch (event.kind) {
    case TrainingEvent::Kind::modelStarted:
      emit modelStarted(event.model, event.modelName, event.runDir);
      break;
    case TrainingEvent::Kind::progress:
      emit progress(event.progress);
      break;
    case TrainingEvent::Kind::pausedChanged:
      // A pause acknowledged after a stop or resume is already over.
      if (paused_ == event.paused || (event.paused && !running_)) return;
      paused_ = event.paused;
      emit pausedChanged(event.paused);
      break;
    case TrainingEvent::Kind::modelFinished:
      emit modelFinished(event.outcome);
      break;
  }
}

void TrainingSession::end(bool stopped, const QString& error) {
  running_ = false;
  if (paused_) {
    paused_ = false;
    emit pausedChanged(false);
  }
  emit finished(stopped, error);
}

}  // namespace aaren::ui
