#pragma once
// The models that train on the CPU only, and why, said once: core refuses a device engine for one
// with this reason, and the command line and the pages show the same words.
//   event models   their heads and the time features have no GPU kernels
//   classifiers    likewise
//   rl             Decision Transformers: their token embeddings and action head likewise
//   forecasting    features MS (every channel in, the target alone forecast): the GPU model
//                  forecasts every channel
//   linear         the linear Transformer, of any task: its kernels (gpu/linear_attention.hpp) are
//                  not yet part of the GPU model
#include <string>

#include "core/data/forecast_features.hpp"
#include "core/model/model_config.hpp"
#include "core/util/compute_device.hpp"

namespace aaren {

enum class TrainingTaskKind { forecast, events, classify, rl };

// Why a model of this task (for forecasting, of these features) trains on the CPU only; empty when
// a GPU can train it.
std::string cpu_only_reason(TrainingTaskKind task, ForecastFeatures features = ForecastFeatures::M);

// Why a model of this family trains and streams on the CPU only; empty when a GPU can run it.
std::string cpu_only_reason(ModelKind kind);
// Why this forecaster runs on the CPU only, by its features (MS: a target channel) or its family;
// empty when a GPU can run it. What the GPU's model, stream and engine check first.
std::string cpu_only_reason(const ModelConfig& forecaster);

// Where a model of this family trains when `chosen` was asked for: the CPU for a family the GPU
// model does not run, else `chosen` (how --device auto and the Train page place each model).
inline ComputeDevice device_for(ModelKind kind, ComputeDevice chosen) {
  return cpu_only_reason(kind).empty() ? chosen : ComputeDevice::cpu;
}

// Throws std::invalid_argument with cpu_only_reason when the device is a GPU and the model trains
// on the CPU only.
void require_trainable_on(ComputeDevice device, TrainingTaskKind task, ForecastFeatures features = ForecastFeatures::M);

}  // namespace aaren
