#include "core/forecast/naive_baselines.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace aaren {

void seasonal_naive_forecast(float* y, const float* x, const WindowShape& shape, int period) {
  if (period < 1 || period > shape.seq_len)
    throw std::invalid_argument("a seasonal naive forecast of period " + std::to_string(period) +
                                " needs a period between 1 and the look-back of " + std::to_string(shape.seq_len) +
                                " rows");
  const std::size_t C = std::size_t(shape.channels), K = std::size_t(shape.outputs());
  const std::size_t first = shape.forecast_channel < 0 ? 0 : std::size_t(shape.forecast_channel);
  for (int h = 0; h < shape.horizon; ++h) {
    // Step h + 1 repeats the row P * ceil((h + 1) / P) before it: the same phase of the last season.
    const int source_row = shape.seq_len - period + h % period;
    const float* from = x + std::size_t(source_row) * C + first;
    std::copy(from, from + K, y + std::size_t(h) * K);
  }
}

EvalMetrics naive_forecast_metrics(const WindowSet& windows, const WindowShape& shape, int period) {
  const std::size_t C = std::size_t(shape.channels), K = std::size_t(shape.outputs());
  std::vector<float> x(std::size_t(shape.seq_len) * C), truth(std::size_t(shape.horizon) * K), y(truth.size());
  ForecastErrorSums errors(shape.outputs());
  for (long i = 0; i < windows.size(); ++i) {
    windows.copy(i, x.data(), truth.data());
    seasonal_naive_forecast(y.data(), x.data(), shape, period);
    errors.add(y.data(), truth.data(), shape.horizon);
  }
  return errors.metrics(windows.size());
}

}  // namespace aaren
