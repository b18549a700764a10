#pragma once
// The training loop every task's run shares: the Trainer trains, and each time validation improves
// the checkpoint and then metrics.json and loss.csv are rewritten, so that a killed run still
// leaves its best model on disk with the metrics that match it. When training ends (completed,
// stopped early, cancelled or diverged) the trainer holds the best weights, or before any epoch
// finished the last finite ones; they are written, evaluated, and the final metrics written, so
// the folder always ends with a loadable model.
//
// A task supplies its writers and its evaluation through CheckpointedRun; the history (epochs,
// best epoch, how training ended, timing) is filled in here.
#include <functional>
#include <vector>

#include "core/train/run_folder_format.hpp"
#include "core/train/trainer.hpp"
#include "core/train/training_task.hpp"

namespace aaren {

struct CheckpointedRun {
  // The shared part of the task's metrics, which write_metrics writes whole.
  TrainingHistory& history;
  std::function<void(const std::vector<float>& params)> write_checkpoint;
  std::function<void()> write_metrics;
  // Sets the task's validation metrics from the new best epoch's loss, before they are written.
  std::function<void(const EpochRecord& best)> note_best;
  // Sets the task's validation and test metrics of the best weights, which the trainer then holds.
  std::function<void()> evaluate;
};

// Trains `params` (which `trainer` trains in place) on `train`, validating on `validation`.
// `callbacks` are passed on; their on_best is called after the files are written.
TrainResult train_with_checkpoints(Trainer& trainer, const std::vector<float>& params, const TrainingTask& train,
                                   const TrainingTask& validation, const CheckpointedRun& run,
                                   const TrainCallbacks& callbacks = {});

}  // namespace aaren
