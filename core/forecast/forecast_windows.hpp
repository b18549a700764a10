#pragma once
// The windows of one part of a prepared data set, as the trainer reads them: every channel in, and
// as truth every channel or, for features MS, the target's alone.
#include <algorithm>

#include "core/data/forecast_data.hpp"
#include "core/forecast/window_set.hpp"

namespace aaren {

class ForecastWindows : public WindowSet {
 public:
  // `forecast_channel`: the one channel of the truth (MS), or -1 for every channel.
  ForecastWindows(const Matrix<float>& scaled /*(rows, C)*/, const WindowIndex& index, int forecast_channel = -1)
      : scaled_(scaled), index_(index), forecast_channel_(forecast_channel) {}
  // The windows of `index` with the truth `data` forecasts.
  ForecastWindows(const ForecastData& data, const WindowIndex& index)
      : ForecastWindows(data.scaled, index, data.forecast_channel) {}
  long size() const override { return index_.sample_count(); }
  void copy(long i, float* x /*(T, C)*/, float* y /*(H, K)*/) const override {
    const std::size_t c = std::size_t(scaled_.cols);
    const float* input = scaled_.data.data() + std::size_t(index_.input_row(int(i))) * c;
    const float* target = scaled_.data.data() + std::size_t(index_.target_row(int(i))) * c;
    std::copy(input, input + std::size_t(index_.seq_len) * c, x);
    if (forecast_channel_ < 0) {
      std::copy(target, target + std::size_t(index_.horizon) * c, y);
      return;
    }
    for (int h = 0; h < index_.horizon; ++h) y[h] = target[std::size_t(h) * c + std::size_t(forecast_channel_)];
  }

 private:
  const Matrix<float>& scaled_;
  WindowIndex index_;
  int forecast_channel_;
};

}  // namespace aaren
