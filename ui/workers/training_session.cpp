#include "ui/workers/training_session.hpp"

#include <stdexcept>

namespace aaren::ui {

TrainingSession::TrainingSession(QObject* parent) : QObject(parent), worker_(new TrainingWorker) {
  qRegisterMetaType<aaren::ui::TrainingProgress>();
  qRegisterMetaType<aaren::ui::ModelOutcome>();
  thread_.setObjectName(QStringLiteral("Training"));
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &TrainingWorker::modelStarted, this, &TrainingSession::modelStarted);
  connect(worker_, &TrainingWorker::progress, this, &TrainingSession::progress);
  connect(worker_, &TrainingWorker::modelFinished, this, &TrainingSession::modelFinished);
  connect(worker_, &TrainingWorker::pausedChanged, this, [this](bool paused) {
    // A pause acknowledged after a stop or resume is already over.
    if (paused_ == paused || (paused && !running_)) return;
    paused_ = paused;
    emit pausedChanged(paused);
  });
  connect(worker_, &TrainingWorker::finished, this, [this](bool stopped, const QString& error) {
    running_ = false;
    if (paused_) {
      paused_ = false;
      emit pausedChanged(false);
    }
    emit finished(stopped, error);
  });
  thread_.start();
}

TrainingSession::~TrainingSession() { stopAndWait(); }

void TrainingSession::start(const TrainingJob& job) {
  if (running_) throw std::logic_error("a training job is already running");
  if (!worker_) throw std::logic_error("the training session was closed");
  worker_->reset();
  running_ = true;
  QMetaObject::invokeMethod(worker_, [worker = worker_, job] { worker->run(job); }, Qt::QueuedConnection);
}

void TrainingSession::pause() {
  if (worker_ && running_) worker_->requestPause();
}

void TrainingSession::resume() {
  if (worker_) worker_->requestResume();
}

void TrainingSession::stop() {
  if (worker_ && running_) worker_->requestStop();
}

void TrainingSession::stopAndWait() {
  if (!worker_) return;
  worker_->requestStop();
  thread_.quit();  // once the running job has returned
  thread_.wait();
  worker_ = nullptr;  // deleted as its thread finished
}

}  // namespace aaren::ui
