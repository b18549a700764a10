#include "core/train/memory_estimate.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "core/model/backbone.hpp"
#include "core/model/forecast_model.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/util/available_memory.hpp"

namespace aaren {

namespace {

constexpr std::size_t kFloatBytes = sizeof(float);
// See the header: weights, best, gradient, 8 shard gradients, AdamW m, v and decay mask, checkpoint.
constexpr std::size_t kParameterCopies = 15;
constexpr int kWorkerSetsPerThread = 2;  // training and validation

// BackwardScratch<float> beyond the backbone's: the head's dhead and dlnf.
double head_scratch_values(const ModelConfig& c) { return double(c.horizon) * c.outputs() + c.d_model; }

}  // namespace

std::size_t training_worker_bytes(const ModelConfig& model) {
  const double window_values = double(model.seq_len) * model.channels + 2.0 * model.horizon * model.outputs();
  return forward_state_bytes(model, kFloatBytes) + backbone_scratch_bytes(model, kFloatBytes) +
         std::size_t((head_scratch_values(model) + window_values) * double(kFloatBytes));
}

TrainingMemoryEstimate estimate_training_memory(const ModelConfig& model, int threads) {
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  TrainingMemoryEstimate estimate;
  estimate.parameters = ParameterLayout(model).total();
  estimate.parameter_bytes = kParameterCopies * estimate.parameters * kFloatBytes;
  estimate.workers = kWorkerSetsPerThread * threads;
  estimate.bytes_per_worker = training_worker_bytes(model);
  return estimate;
}

std::string describe(const TrainingMemoryCheck& check) {
  std::string text = "about " + format_bytes(double(check.estimate.total_bytes())) + " of memory";
  if (check.available) text += " (" + format_bytes(double(*check.available)) + " available)";
  return text;
}

std::string describe_memory_shortfall(const TrainingMemoryCheck& check, ModelKind kind) {
  const TrainingMemoryEstimate& e = check.estimate;
  const std::string available = check.available ? format_bytes(double(*check.available)) : "an unknown amount";
  return "training needs about " + format_bytes(double(e.total_bytes())) + " of memory, but only " + available +
         " is available: " + format_bytes(double(e.parameter_bytes)) + " for " + std::to_string(e.parameters) +
         " parameters with their gradients and optimizer state, and " +
         format_bytes(double(e.workers) * double(e.bytes_per_worker)) + " for " + std::to_string(e.workers) +
         " sets of activations (" + std::to_string(kWorkerSetsPerThread) + " per thread, " +
         format_bytes(double(e.bytes_per_worker)) + " each" +
         (kind == ModelKind::transformer ? "; a Transformer's attention weights grow with the square of the look-back"
                                         : "") +
         ")";
}

TrainingMemoryError::TrainingMemoryError(const TrainingMemoryCheck& check, ModelKind kind)
    : std::runtime_error(describe_memory_shortfall(check, kind) +
                         ". Use a shorter look-back, a smaller model (width, feed-forward size or layers), or fewer "
                         "threads"),
      check_(check),
      kind_(kind) {}

void check_training_memory(const TrainingMemoryCheck& check, const ModelConfig& model) {
  if (!check.available || check.estimate.total_bytes() <= *check.available) return;
  throw TrainingMemoryError(check, model.kind);
}

TrainingMemoryCheck require_training_memory(const ModelConfig& model, int threads) {
  const TrainingMemoryCheck check{estimate_training_memory(model, threads), available_memory_bytes()};
  check_training_memory(check, model);
  return check;
}

}  // namespace aaren
