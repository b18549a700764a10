#pragma once
// The windows of one part of a prepared data set, as the trainer reads them.
#include <algorithm>

#include "core/data/forecast_data.hpp"
#include "core/train/window_set.hpp"

namespace aaren {

class ForecastWindows : public WindowSet {
 public:
  ForecastWindows(const Matrix<float>& scaled /*(rows, C)*/, const WindowIndex& index)
      : scaled_(scaled), index_(index) {}
  long size() const override { return index_.sample_count(); }
  void copy(long i, float* x /*(T, C)*/, float* y /*(H, C)*/) const override {
    const std::size_t c = std::size_t(scaled_.cols);
    const float* input = scaled_.data.data() + std::size_t(index_.input_row(int(i))) * c;
    const float* target = scaled_.data.data() + std::size_t(index_.target_row(int(i))) * c;
    std::copy(input, input + std::size_t(index_.seq_len) * c, x);
    std::copy(target, target + std::size_t(index_.horizon) * c, y);
  }

 private:
  const Matrix<float>& scaled_;
  WindowIndex index_;
};

}  // namespace aaren
