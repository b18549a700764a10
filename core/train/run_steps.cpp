#include "core/train/run_steps.hpp"

#include "core/train/run_folder_format.hpp"

namespace aaren {

void run_in_order(const RunSteps& steps, const std::string& out_dir,
                  const std::function<void(const TrainingMemoryCheck&)>& on_memory_checked) {
  steps.read();
  const TrainingMemoryCheck memory = steps.configure();
  if (on_memory_checked) on_memory_checked(memory);
  prepare_run_folder(out_dir);
  steps.write_config();
  steps.train();
}

}  // namespace aaren
