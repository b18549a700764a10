#include "ui/workers/training_worker.hpp"

#include <QElapsedTimer>
#include <QMutexLocker>
#include <exception>
#include <stdexcept>

#include "core/train/cpu_only_models.hpp"
#include "gpu/forecast_device.hpp"
#include "ui/wording/plan_wording.hpp"
#include "ui/wording/wording.hpp"

namespace aaren::ui {

void TrainingWorker::requestPause() {
  const QMutexLocker lock(&mutex_);
  pauseRequested_ = true;
}

void TrainingWorker::requestResume() {
  const QMutexLocker lock(&mutex_);
  pauseRequested_ = false;
  resumed_.wakeAll();
}

void TrainingWorker::requestStop() {
  stop_.store(true);
  const QMutexLocker lock(&mutex_);
  resumed_.wakeAll();
}

void TrainingWorker::reset() {
  stop_.store(false);
  const QMutexLocker lock(&mutex_);
  pauseRequested_ = false;
}

namespace {

void report(JobContext& context, const TrainingEvent& event) { context.report(QVariant::fromValue(event)); }

// Each task's model trained into its folder; the outcome without its name.
ModelOutcome trainModel(ForecastRunRequest request, const TrainingJob::Model& model, ComputeDevice device,
                        const TrainCallbacks& callbacks) {
  request.model.kind = model.kind;
  request.out_dir = model.run_dir;
  if (device == ComputeDevice::cuda) request.engine = gpu::make_forecast_engine;
  if (!model.continue_from.empty()) {
    const LoadedForecastRun earlier = load_forecast_run(model.continue_from);
    if (earlier.config.model.kind != model.kind)
      throw std::invalid_argument(model.continue_from + " holds a " + std::string(to_string(earlier.config.model.kind)) +
                                  " model, not a " + std::string(to_string(model.kind)));
    // The same features of the same target, or the weights would learn another task.
    if (earlier.config.features != request.data.features ||
        (needs_target(earlier.config.features) && earlier.config.target != request.csv.target))
      throw std::invalid_argument(model.continue_from + " forecasts with features " +
                                  std::string(to_string(earlier.config.features)) +
                                  (earlier.config.target.empty() ? "" : " of target '" + earlier.config.target + "'") +
                                  "; choose that target on the Data page to continue it");
    request.initial_params = earlier.params;
  }
  const ForecastRunOutcome run = train_forecast_run(request, callbacks);
  ModelOutcome outcome;
  outcome.metrics = run.metrics;
  outcome.dataWarnings = run.warnings;
  return outcome;
}

// Event models, classifiers and Decision Transformers: runs of their own task, always from fresh weights.
template <class Request>
Request freshRequest(Request request, const TrainingJob::Model& model, const std::string& whose,
                     const std::string& plural) {
  if (!model.continue_from.empty())
    throw std::invalid_argument(model.continue_from + " is " + whose + " run; " + plural +
                                " always start from fresh weights, so start a new run");
  request.model.backbone.kind = model.kind;
  request.out_dir = model.run_dir;
  return request;
}

ModelOutcome trainModel(const EventRunRequest& request, const TrainingJob::Model& model, ComputeDevice,
                        const TrainCallbacks& callbacks) {
  const EventRunOutcome run =
      train_event_run(freshRequest(request, model, "an event model's", "event models"), callbacks);
  ModelOutcome outcome;
  outcome.metrics = run.metrics;
  outcome.meanGap = run.config.model.time_scale;
  outcome.timeUnit = QString::fromStdString(run.config.data.time_unit);
  return outcome;
}

ModelOutcome trainModel(const ClassifyRunRequest& request, const TrainingJob::Model& model, ComputeDevice,
                        const TrainCallbacks& callbacks) {
  ModelOutcome outcome;
  outcome.metrics = train_classify_run(freshRequest(request, model, "a classifier's", "classifiers"), callbacks).metrics;
  return outcome;
}

ModelOutcome trainModel(const rl::DecisionRunRequest& request, const TrainingJob::Model& model, ComputeDevice,
                        const TrainCallbacks& callbacks) {
  ModelOutcome outcome;
  outcome.metrics =
      rl::train_decision_run(freshRequest(request, model, "a Decision Transformer's", "Decision Transformers"), callbacks)
          .metrics;
  return outcome;
}

TrainingEvent pausedEvent(bool paused) {
  TrainingEvent event;
  event.kind = TrainingEvent::Kind::pausedChanged;
  event.paused = paused;
  return event;
}

}  // namespace

void TrainingWorker::waitWhilePaused(JobContext& context) {
  QMutexLocker lock(&mutex_);
  if (!pauseRequested_ || stop_.load()) return;
  report(context, pausedEvent(true));
  while (pauseRequested_ && !stop_.load()) resumed_.wait(&mutex_);
  report(context, pausedEvent(false));
}

TrainingTaskKind taskOf(const TrainingRequest& request) {
  constexpr TrainingTaskKind kinds[] = {TrainingTaskKind::forecast, TrainingTaskKind::events, TrainingTaskKind::classify,
                                        TrainingTaskKind::rl};
  return kinds[request.index()];
}

TrainingResult TrainingWorker::run(const TrainingJob& job, JobContext& context) {
  const int models = int(job.models.size());
  try {
    const ForecastRunRequest* forecast = std::get_if<ForecastRunRequest>(&job.request);
    require_trainable_on(job.device, taskOf(job.request), forecast ? forecast->data.features : ForecastFeatures::M);
    for (int index = 0; index < models && !stop_.load(); ++index) {
      const TrainingJob::Model& model = job.models[std::size_t(index)];
      const QString name = displayName(model.kind);
      TrainingEvent started;
      started.kind = TrainingEvent::Kind::modelStarted;
      started.model = index;
      started.modelName = name;
      started.runDir = QString::fromStdString(model.run_dir);
      report(context, started);

      QElapsedTimer sinceReport;
      sinceReport.start();
      TrainCallbacks callbacks;
      callbacks.cancel = &stop_;
      callbacks.progress = [&](const TrainProgress& p) {
        // The trainer calls this after every step; the window needs far fewer updates.
        const bool milestone = p.epoch_end || p.step == 1 || p.step == p.steps_per_epoch;
        if (milestone || sinceReport.elapsed() >= kProgressIntervalMs) {
          sinceReport.restart();
          TrainingEvent event;
          event.progress = {index, models, name, p};
          report(context, event);
        }
        waitWhilePaused(context);
      };
      TrainingEvent finished;  // member by member: GCC 12 misreads a braced ForecastRunMetrics{} as uninitialized
      finished.kind = TrainingEvent::Kind::modelFinished;
      // A family the GPU model does not run trains on the CPU, beside the others on the GPU.
      const ComputeDevice device = device_for(model.kind, job.device);
      finished.outcome =
          std::visit([&](const auto& request) { return trainModel(request, model, device, callbacks); }, job.request);
      finished.outcome.modelName = name;
      report(context, finished);
    }
    return {stop_.load(), {}};
  } catch (const TrainingMemoryError& error) {
    return {stop_.load(), describeForTrainPage(error)};
  } catch (const std::exception& error) {
    return {stop_.load(), QString::fromUtf8(error.what())};
  }
}

}  // namespace aaren::ui
