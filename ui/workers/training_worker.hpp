#pragma once
// Training off the GUI thread: one or two models (Aaren, the Transformer, or both in turn on the
// same data and seed), each into its own run folder, with pause, resume and stop. The work runs on
// TrainingSession's BackgroundJob; pause blocks it between two training steps, inside the progress
// callback, until resume or stop; stop sets the trainer's cancel flag, after which the core still
// evaluates and writes the run folder, keeping the best weights. The data is a time series
// (train_forecast_run, on the CPU or the GPU), an event log (train_event_run, on the CPU), labelled
// series (train_classify_run, on the CPU) or an offline data set (rl::train_decision_run, on the CPU);
// the reports are the same.
#include <QMetaType>
#include <QMutex>
#include <QString>
#include <QWaitCondition>
#include <atomic>
#include <string>
#include <variant>
#include <vector>

#include "core/classify/classify_run.hpp"
#include "core/events/event_run.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/train/cpu_only_models.hpp"
#include "ui/state/training_choice.hpp"
#include "ui/state/training_request.hpp"
#include "ui/workers/background_job.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

struct TrainingJob {
  TrainingRequest request;
  struct Model {
    ModelKind kind = ModelKind::aaren;
    std::string run_dir;
    // A run folder whose weights training starts from; "" = fresh. Forecasters only: event models
    // and classifiers always start fresh.
    std::string continue_from;
  };
  std::vector<Model> models;  // trained in this order
  ComputeDevice device = ComputeDevice::cpu;  // where the training steps run
};

// The task of a job's request.
TrainingTaskKind taskOf(const TrainingRequest& request);

// What the window hears of a model's training, at most every kProgressIntervalMs and at every
// epoch's end.
struct TrainingProgress {
  int model = 0;  // index into TrainingJob::models
  int models = 1;
  QString modelName;  // "Aaren", "Transformer"
  TrainProgress progress;
};

// A model's metrics as written to its metrics.json, of the job's task.
using TaskRunMetrics = std::variant<ForecastRunMetrics, EventRunMetrics, ClassifyRunMetrics, rl::DecisionRunMetrics>;

struct ModelOutcome {
  QString modelName;
  TaskRunMetrics metrics;
  std::vector<std::string> dataWarnings;  // preparing a time series': a channel constant over the training rows
  // An event log's: the training part's mean gap between events (the model's time scale) and its unit.
  double meanGap = 0;
  QString timeUnit;
};

// What training tells the window as it goes, in order: BackgroundJob::reported items.
struct TrainingEvent {
  enum class Kind { modelStarted, progress, pausedChanged, modelFinished };
  Kind kind = Kind::progress;
  int model = 0;         // modelStarted
  QString modelName;     // modelStarted
  QString runDir;        // modelStarted
  TrainingProgress progress;  // progress
  bool paused = false;   // pausedChanged
  ModelOutcome outcome;  // modelFinished
};

// How the job ended: its BackgroundJob result.
struct TrainingResult {
  bool stopped = false;
  QString error;  // empty when there was none
};

// The training job's work and its controls. run() runs on TrainingSession's BackgroundJob thread;
// the controls are called from the window meanwhile.
class TrainingWorker {
 public:
  static constexpr int kProgressIntervalMs = 50;

  // Thread-safe: the window calls them while run() is busy on the worker thread.
  void requestPause();
  void requestResume();
  void requestStop();
  // Clears a stop or pause left from the previous job; only while no job runs.
  void reset();

  // Trains the job's models in turn, reporting TrainingEvents through the context. Errors end
  // the job with TrainingResult::error rather than as a failed job, as a stop keeps what it wrote.
  TrainingResult run(const TrainingJob& job, JobContext& context);

 private:
  void waitWhilePaused(JobContext& context);

  std::atomic<bool> stop_{false};
  QMutex mutex_;
  QWaitCondition resumed_;
  bool pauseRequested_ = false;  // guarded by mutex_
};

}  // namespace aaren::ui

Q_DECLARE_METATYPE(aaren::ui::TrainingProgress)
Q_DECLARE_METATYPE(aaren::ui::ModelOutcome)
Q_DECLARE_METATYPE(aaren::ui::TrainingEvent)
Q_DECLARE_METATYPE(aaren::ui::TrainingResult)
