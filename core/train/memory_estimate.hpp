#pragma once
// The memory a training run allocates, estimated from its configuration before anything is
// allocated, so that a run that cannot fit is refused with the numbers instead of being killed by
// the system part-way. What it counts (float32 throughout):
//   parameter-sized buffers  the weights, the best weights so far, the gradient, the trainer's 8
//                            per-shard gradients, AdamW's two moments and decay mask, and the
//                            checkpoint being serialized: 15 copies
//   activation buffers       per worker: ForwardState + BackwardScratch + one window's input,
//                            truth and output gradient; the trainer keeps one worker per thread
//                            for the training part and one per thread for validation
// The data set is not counted: it is loaded before the check, so the memory available already
// excludes it.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/model/model_config.hpp"

namespace aaren {

struct TrainingMemoryEstimate {
  std::size_t parameters = 0;
  std::size_t parameter_bytes = 0;   // every parameter-sized buffer together
  int workers = 0;
  std::size_t bytes_per_worker = 0;  // one worker's activation buffers
  std::size_t total_bytes() const { return parameter_bytes + std::size_t(workers) * bytes_per_worker; }
};

// threads as TrainSettings::threads: 0 or less means one per hardware thread.
TrainingMemoryEstimate estimate_training_memory(const ModelConfig& model, int threads);

// The activation buffers of one worker (a forward and a backward pass over one window).
std::size_t training_worker_bytes(const ModelConfig& model);

struct TrainingMemoryCheck {
  TrainingMemoryEstimate estimate;
  std::optional<std::size_t> available;  // nullopt where the system does not say
};

// "about 45 MiB of memory (21 GiB available)": for the start of a run.
std::string describe(const TrainingMemoryCheck& check);

// "training needs about 3.1 GiB of memory, but only 2 GiB is available: ... (... each)": the facts
// of a shortfall without a remedy, the same for every front end.
std::string describe_memory_shortfall(const TrainingMemoryCheck& check, ModelKind kind);

// A run that does not fit in memory, as its numbers, so that each front end names its own settings
// for the remedy: the command line its flags (--seq-len, --d-model), the Train page its fields.
// what() is describe_memory_shortfall with a remedy that names neither.
class TrainingMemoryError : public std::runtime_error {
 public:
  TrainingMemoryError(const TrainingMemoryCheck& check, ModelKind kind);
  const TrainingMemoryCheck& check() const { return check_; }
  ModelKind kind() const { return kind_; }

 private:
  TrainingMemoryCheck check_;
  ModelKind kind_;
};

// Throws TrainingMemoryError when the estimate exceeds what is available. Does nothing when
// availability is unknown.
void check_training_memory(const TrainingMemoryCheck& check, const ModelConfig& model);

// The estimate for this configuration against this machine's available memory; throws as
// check_training_memory does.
TrainingMemoryCheck require_training_memory(const ModelConfig& model, int threads);

}  // namespace aaren
