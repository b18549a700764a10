#pragma once
// The GUI thread's handle on training: runs one TrainingJob at a time on a BackgroundJob of its
// own and relays the job's reports as signals on the GUI thread. Nothing here blocks: stop() asks
// the job to end, and finished() follows once the core has evaluated the best weights and written
// the run folder.
#include <QObject>
#include <memory>

#include "ui/workers/training_worker.hpp"

namespace aaren::ui {

class BackgroundJob;

class TrainingSession : public QObject {
  Q_OBJECT

 public:
  explicit TrainingSession(QObject* parent = nullptr);
  // Stops a running job without waiting for it: its thread writes the run folder and then ends.
  ~TrainingSession() override;

  // Throws std::logic_error when a job is already running.
  void start(const TrainingJob& job);
  void pause();
  void resume();
  void stop();  // the best weights are kept; finished(true, ...) follows

  bool isRunning() const { return running_; }
  bool isPaused() const { return paused_; }

 signals:
  void modelStarted(int model, const QString& modelName, const QString& runDir);
  void progress(const aaren::ui::TrainingProgress& progress);
  void pausedChanged(bool paused);
  void modelFinished(const aaren::ui::ModelOutcome& outcome);
  void finished(bool stopped, const QString& error);

 private:
  void relay(const TrainingEvent& event);
  void end(bool stopped, const QString& error);

  BackgroundJob* job_;
  std::shared_ptr<TrainingWorker> worker_;  // shared with the running work, which may outlive the session
  bool running_ = false;
  bool paused_ = false;
};

}  // namespace aaren::ui
