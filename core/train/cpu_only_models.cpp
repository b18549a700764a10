#include "core/train/cpu_only_models.hpp"

#include <stdexcept>

namespace aaren {

std::string cpu_only_reason(TrainingTaskKind task, ForecastFeatures features) {
  switch (task) {
    case TrainingTaskKind::events:
      return "event models train on the CPU only";
    case TrainingTaskKind::classify:
      return "classifiers train on the CPU only";
    case TrainingTaskKind::rl:
      return "Decision Transformers train and act on the CPU only";
    case TrainingTaskKind::forecast:
      if (features == ForecastFeatures::MS)
        return "a model of features MS (every channel in, the target alone forecast) trains and forecasts on the CPU "
               "only";
      return {};
  }
  return {};
}

std::string cpu_only_reason(ModelKind kind) {
  if (kind == ModelKind::linear) return "the linear Transformer trains and streams on the CPU only: the GPU model does not run its attention yet";
  return {};
}

std::string cpu_only_reason(const ModelConfig& forecaster) {
  if (forecaster.target_channel >= 0) return cpu_only_reason(TrainingTaskKind::forecast, ForecastFeatures::MS);
  return cpu_only_reason(forecaster.kind);
}

void require_trainable_on(ComputeDevice device, TrainingTaskKind task, ForecastFeatures features) {
  if (device != ComputeDevice::cuda) return;
  if (const std::string reason = cpu_only_reason(task, features); !reason.empty()) throw std::invalid_argument(reason);
}

}  // namespace aaren
