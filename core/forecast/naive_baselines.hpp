#pragma once
// The two forecasts that need no model, which a forecasting model has to beat on the same test
// windows to be worth its training (docs/DESIGN.md section 9, metrics.json's test_comparison):
//   last value      every step of the horizon repeats the window's last look-back value;
//   seasonal naive  step h (1-based) repeats the look-back value P * ceil(h / P) rows before it,
//                   the same phase of the last season seen, for a period P up to the look-back.
// The last value repeated is the seasonal naive forecast of period 1. Both read only the look-back,
// as the model does, so they are scored on exactly the windows and values the model is.
#include "core/forecast/forecast_task.hpp"
#include "core/forecast/window_set.hpp"

namespace aaren {

// Sizes of the windows a forecast reads and writes.
struct WindowShape {
  int seq_len = 0;   // T
  int horizon = 0;   // H
  int channels = 0;  // C
  // The one channel forecast (features MS), or -1 for every channel: the baselines forecast what
  // the model does, from the same look-back.
  int forecast_channel = -1;

  int outputs() const { return forecast_channel < 0 ? channels : 1; }  // K
};

// y (H, K) from x (T, C), in whatever units x is in. Throws std::invalid_argument unless
// 1 <= period <= T.
void seasonal_naive_forecast(float* y, const float* x, const WindowShape& shape, int period);

// MSE and MAE, overall and per channel forecast, of the seasonal naive forecast of `period` (1: the last value
// repeated) over every window of `windows`, in the windows' units (scaled, for a model's windows).
EvalMetrics naive_forecast_metrics(const WindowSet& windows, const WindowShape& shape, int period);

}  // namespace aaren
