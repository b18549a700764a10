#pragma once
// The memory training an event model allocates, estimated before anything is allocated, with the
// accounting of core/train/memory_estimate.hpp: the parameter-sized buffers (weights, best
// weights, gradients, per-shard gradients, AdamW state, the checkpoint being serialized) and one
// set of activation buffers per worker, here an EventForwardState and an EventBackwardScratch for
// a full window. The event log itself is read before the check and is not counted.
#include <cstddef>

#include "core/events/event_model_config.hpp"
#include "core/train/memory_estimate.hpp"

namespace aaren {

// The activation buffers of one worker (a forward and a backward pass over one full window).
std::size_t event_training_worker_bytes(const EventModelConfig& config);

// threads as TrainSettings::threads: 0 or less means one per hardware thread.
TrainingMemoryEstimate estimate_event_training_memory(const EventModelConfig& config, int threads);

// The estimate against this machine's available memory; throws std::runtime_error as
// check_training_memory does when it does not fit.
TrainingMemoryCheck require_event_training_memory(const EventModelConfig& config, int threads);

}  // namespace aaren
