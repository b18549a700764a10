#pragma once
// The forecasting model (core/model/forecast_model.hpp) on the GPU, for a batch of windows at a
// time: the whole forward and backward pass on the device, built from gpu/layers.hpp and the
// Aaren scan of gpu/prefix_attention.hpp; plus the engine that lets a Trainer run its steps there
// and the model run as an RNN there. Plain C++: callable without nvcc (a build without CUDA throws
// "CUDA unavailable: <reason>" from every constructor).
#include <cstddef>
#include <memory>
#include <string>

#include "core/model/model_config.hpp"
#include "core/train/cpu_only_models.hpp"
#include "core/train/step_engine.hpp"
#include "core/train/trainer.hpp"
#include "core/forecast/window_set.hpp"

namespace aaren::gpu {

// The GPU model forecasts every channel (features M and S); a model that forecasts the target alone
// (features MS, ModelConfig::target_channel) trains and forecasts on the CPU. Every constructor
// below throws std::invalid_argument with core's reason for one (core/train/cpu_only_models.hpp).

// Parameters, gradients and every activation of a batch of up to max_batch windows, in device
// memory allocated once here.
class DeviceForecastModel {
 public:
  DeviceForecastModel(const ModelConfig& config, int max_batch);
  ~DeviceForecastModel();
  DeviceForecastModel(const DeviceForecastModel&) = delete;
  DeviceForecastModel& operator=(const DeviceForecastModel&) = delete;

  // Device bytes this model of this configuration and batch takes (before it is made).
  static std::size_t device_bytes(const ModelConfig& config, int max_batch);

  // Host parameters (ParameterLayout(config).total() floats) in and out.
  void set_params(const float* params);
  void get_params(float* params) const;
  void get_grads(float* grads) const;

  // x (batch, seq_len, C) and truth (batch, horizon, C) in host memory. Returns the mean over the
  // batch of each window's MSE; with `backward`, the gradients (get_grads) become the gradient of
  // that mean (overwritten, not accumulated).
  double loss(const float* x, const float* truth, int batch, bool backward);
  // y (batch, horizon, C) in host memory, in the input's units, for x (batch, seq_len, C).
  void forecast(float* y, const float* x, int batch);

  // Clipping and AdamW on the device, from the gradients of the last loss(..., true): no host
  // round trip. Returns the gradient's norm before clipping; the update is skipped when it is not
  // finite. Step numbers count from 1 after set_params and advance with every update made.
  double optimizer_step(double lr, const AdamWSettings& adamw, double clip_norm);

  // loss(x, truth, batch, true) then optimizer_step(lr, adamw, clip_norm) as one queue of device
  // work: the host waits once, at the end, for the loss and the norm together.
  StepReport train_step(const float* x, const float* truth, int batch, double lr, const AdamWSettings& adamw,
                        double clip_norm);

  // The most windows a batch may hold (loss, forecast and train_step take 1 to max_batch).
  int max_batch() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A StepEngine that trains a forecasting model on the GPU over two window sets (which must outlive
// it): each step copies its windows to the device, then runs forward, backward and the optimizer
// there.
std::unique_ptr<StepEngine> make_forecast_engine(const ModelConfig& config, const TrainSettings& settings,
                                                 const WindowSet& train, const WindowSet& validation);

// The forecasting model run as an RNN on the GPU (the twin of core/model/forecast_stream.hpp):
// Aaren's per-layer (m, u, w) states, or the Transformer's KV caches for up to `capacity` tokens,
// live on the device; each step uploads one input row and runs every layer there. The positional
// encoding of the first `capacity` tokens is a table on the device; an Aaren stream goes on past
// it, uploading each later token's row with its input.
class DeviceForecastStream {
 public:
  // params are copied to the device (the host buffer may go away).
  DeviceForecastStream(const ModelConfig& config, const float* params /*host*/, long capacity);
  ~DeviceForecastStream();
  DeviceForecastStream(const DeviceForecastStream&) = delete;
  DeviceForecastStream& operator=(const DeviceForecastStream&) = delete;

  // Starts a new sequence; rows are normalized with these per-channel statistics when given.
  void reset(const float* mean /*(C) or nullptr*/ = nullptr, const float* sigma /*(C) or nullptr*/ = nullptr);
  // Takes one input row (C, host) and advances every layer. Throws past `capacity` tokens for the
  // Transformer.
  void step(const float* x /*(C)*/);
  // The last block's hidden state after the latest step (d_model, host).
  void hidden(float* out) const;
  // The forecast (horizon, C, host) from the latest hidden state, in the input's units.
  void forecast(float* y);
  long tokens() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aaren::gpu
