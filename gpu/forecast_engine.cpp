// make_forecast_engine: a Trainer's steps on the GPU. The windows are copied into host staging
// buffers, uploaded once per step, and the whole step (forward, backward, clipping, AdamW) runs as
// one queue of device work (DeviceForecastModel::train_step).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/device_info.hpp"
#include "gpu/forecast_device.hpp"

namespace aaren::gpu {

namespace {

class DeviceForecastEngine final : public StepEngine {
 public:
  DeviceForecastEngine(const ModelConfig& config, const TrainSettings& settings, const WindowSet& train,
                       const WindowSet& validation)
      : config_(config), settings_(settings), train_(train), validation_(validation),
        model_(config, std::max(1, settings.batch)), device_("cuda: " + query_device().name),
        x_(std::size_t(model_.max_batch()) * std::size_t(config.seq_len) * std::size_t(config.channels)),
        truth_(std::size_t(model_.max_batch()) * std::size_t(config.horizon) * std::size_t(config.channels)) {}

  std::string device() const override { return device_; }
  void set_params(const float* params) override { model_.set_params(params); }
  void get_params(float* params) override { model_.get_params(params); }

  StepReport step(const long* examples, int count, double lr) override {
    check_count(count);
    for (int i = 0; i < count; ++i) {
      if (examples[i] < 0 || examples[i] >= train_.size())
        throw std::out_of_range("training example " + std::to_string(examples[i]) + " does not exist: the set has " +
                                std::to_string(train_.size()));
      stage(train_, examples[i], i);
    }
    return model_.train_step(x_.data(), truth_.data(), count, lr, settings_.adamw, settings_.clip_norm);
  }

  // Every window has horizon * channels terms, so (sum of sums) / (sum of terms) is the mean of
  // the windows' MSEs: each batch's mean loss weighs by its number of windows.
  double validation_loss() override {
    const long windows = validation_.size();
    if (windows == 0) throw std::invalid_argument("there are no examples to measure the loss on");
    double sum = 0;
    for (long first = 0; first < windows; first += model_.max_batch()) {
      const int count = int(std::min<long>(model_.max_batch(), windows - first));
      for (int i = 0; i < count; ++i) stage(validation_, first + i, i);
      sum += model_.loss(x_.data(), truth_.data(), count, false) * double(count);
    }
    return sum / double(windows);
  }

 private:
  void check_count(int count) const {
    if (count < 1 || count > model_.max_batch())
      throw std::invalid_argument("a step takes 1 to " + std::to_string(model_.max_batch()) +
                                  " windows (the batch size), not " + std::to_string(count));
  }

  void stage(const WindowSet& set, long example, int slot) {
    const std::size_t x_size = std::size_t(config_.seq_len) * std::size_t(config_.channels);
    const std::size_t truth_size = std::size_t(config_.horizon) * std::size_t(config_.channels);
    set.copy(example, x_.data() + std::size_t(slot) * x_size, truth_.data() + std::size_t(slot) * truth_size);
  }

  ModelConfig config_;
  TrainSettings settings_;
  const WindowSet& train_;
  const WindowSet& validation_;
  DeviceForecastModel model_;
  std::string device_;
  std::vector<float> x_, truth_;  // (batch, seq_len, C), (batch, horizon, C) one batch as uploaded
};

}  // namespace

std::unique_ptr<StepEngine> make_forecast_engine(const ModelConfig& config, const TrainSettings& settings,
                                                 const WindowSet& train, const WindowSet& validation) {
  if (const std::string reason = cpu_only_reason(config); !reason.empty()) throw std::invalid_argument(reason);
  if (!query_device().available) throw_unavailable();
  return std::make_unique<DeviceForecastEngine>(config, settings, train, validation);
}

}  // namespace aaren::gpu
