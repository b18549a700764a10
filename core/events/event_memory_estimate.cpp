#include "core/events/event_memory_estimate.hpp"

#include <algorithm>
#include <thread>

#include "core/model/backbone.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/util/available_memory.hpp"

namespace aaren {

namespace {

constexpr std::size_t kFloatBytes = sizeof(float);
constexpr std::size_t kParameterCopies = 15;  // as for forecasting: see core/train/memory_estimate.hpp
constexpr int kWorkerSetsPerThread = 2;       // training and validation

}  // namespace

std::size_t event_training_worker_bytes(const EventModelConfig& c) {
  const ModelConfig& b = c.backbone;
  const double l = b.seq_len, d = b.d_model, k = c.mixture_components, m = c.marks;
  // EventForwardState beyond the backbone: pe, lnf, features, marks, gaps (double), targets, LayerNorm
  // statistics, the heads' outputs and the mixture and mark probabilities.
  const double event_state = l * (2 * d + c.input_features() + 1 + 2 + 1 + 2 + 3 * k + m + 3 * k + m);
  // EventBackwardScratch beyond the backbone: dtime, dmark, dlnf, dlnf_mark.
  const double event_scratch = l * (3 * k + m + 2 * d);
  return backbone_state_bytes(b, kFloatBytes) + backbone_scratch_bytes(b, kFloatBytes) +
         std::size_t((event_state + event_scratch) * double(kFloatBytes));
}

TrainingMemoryEstimate estimate_event_training_memory(const EventModelConfig& config, int threads) {
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  TrainingMemoryEstimate estimate;
  estimate.parameters = ParameterLayout::for_events(config).total();
  estimate.parameter_bytes = kParameterCopies * estimate.parameters * kFloatBytes;
  estimate.workers = kWorkerSetsPerThread * threads;
  estimate.bytes_per_worker = event_training_worker_bytes(config);
  return estimate;
}

TrainingMemoryCheck require_event_training_memory(const EventModelConfig& config, int threads) {
  const TrainingMemoryCheck check{estimate_event_training_memory(config, threads), available_memory_bytes()};
  check_training_memory(check, config.backbone);
  return check;
}

}  // namespace aaren
