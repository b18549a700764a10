#pragma once
// The GUI thread's handle on training: owns the worker thread and its TrainingWorker, starts one
// job at a time, and relays the worker's reports as signals on the GUI thread.
#include <QObject>
#include <QThread>

#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

class TrainingSession : public QObject {
  Q_OBJECT

 public:
  explicit TrainingSession(QObject* parent = nullptr);
  ~TrainingSession() override;  // stops a running job and waits for its run folder to be written

  // Throws std::logic_error when a job is already running.
  void start(const TrainingJob& job);
  void pause();
  void resume();
  void stop();
  // Stops and blocks until the worker has written its run folders (the best weights are kept).
  // The session cannot start again afterwards; for closing the window.
  void stopAndWait();

  bool isRunning() const { return running_; }
  bool isPaused() const { return paused_; }

 signals:
  void modelStarted(int model, const QString& modelName, const QString& runDir);
  void progress(const aaren::ui::TrainingProgress& progress);
  void pausedChanged(bool paused);
  void modelFinished(const aaren::ui::ModelOutcome& outcome);
  void finished(bool stopped, const QString& error);

 private:
  QThread thread_;
  TrainingWorker* worker_;
  bool running_ = false;
  bool paused_ = false;
};

}  // namespace aaren::ui
