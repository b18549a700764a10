#pragma once
// The order every task's training run takes, written once (docs/DESIGN.md section 12):
//   1. read: the data read and prepared; nothing is written yet, so a file refused leaves no folder;
//   2. configure: the model's configuration made from the data and validated, and the memory
//      training needs checked (refused, or passed to on_memory_checked), and anything else that
//      may refuse the run (a device engine) made;
//   3. the run folder prepared and the configuration written into it;
//   4. train: the weights initialized and trained with checkpoints (core/train/train_with_checkpoints).
// Each task's train_*_run fills the steps with its own work; the steps share its state.
#include <functional>
#include <string>

#include "core/train/memory_estimate.hpp"

namespace aaren {

struct RunSteps {
  std::function<void()> read;
  std::function<TrainingMemoryCheck()> configure;
  std::function<void()> write_config;
  std::function<void()> train;
};

void run_in_order(const RunSteps& steps, const std::string& out_dir,
                  const std::function<void(const TrainingMemoryCheck&)>& on_memory_checked);

}  // namespace aaren
