#include "core/train/train_with_checkpoints.hpp"

#include <chrono>
#include <string>

namespace aaren {

TrainResult train_with_checkpoints(Trainer& trainer, const std::vector<float>& params, const TrainingTask& train,
                                   const TrainingTask& validation, const CheckpointedRun& run,
                                   const TrainCallbacks& callbacks) {
  TrainingHistory& history = run.history;
  TrainCallbacks with_checkpoints = callbacks;
  with_checkpoints.on_best = [&](const std::vector<float>& best, const EpochRecord& record) {
    run.write_checkpoint(best);
    history.epochs.push_back(record);  // so that metrics.json on disk matches the checkpoint
    history.best_epoch = record.epoch;
    history.stop = "running";
    history.message = "training; best epoch so far " + std::to_string(record.epoch);
    run.note_best(record);
    run.write_metrics();
    if (callbacks.on_best) callbacks.on_best(best, record);
  };
  const auto start = std::chrono::steady_clock::now();
  const TrainResult result = trainer.train(train, validation, with_checkpoints);
  history.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  history.samples_per_second = history.train_seconds > 0 ? double(result.samples) / history.train_seconds : 0;
  history.epochs = result.epochs;
  history.best_epoch = result.best_epoch;
  history.stop = to_string(result.stop);
  history.message = result.message;
  run.write_checkpoint(params);
  run.evaluate();
  run.write_metrics();
  return result;
}

}  // namespace aaren
