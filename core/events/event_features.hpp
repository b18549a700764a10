#pragma once
// What the event model reads of one event, and the target it predicts. Times are doubles whatever
// the model's scalar type, so that t_i - origin keeps its precision for large absolute times.
//
// With s = config.time_scale, gap tau_i = t_i - t_{i-1} (t_{-1} = the window's origin) and the time
// since the origin e_i = t_i - origin, the C_in = 1 + 2F (+1) inputs are
//   x[0]          = log(tau_i / s + kMinScaledGap)            (zero gaps are legal)
//   x[1 + 2f]     = sin(2 pi e_i / (s 2^f)),  x[2 + 2f] = cos(2 pi e_i / (s 2^f)),   f = 0..F-1
//   x[1 + 2F]     = the event's feature, when config.feature
// so the periods run 1, 2, 4, ..., 2^(F-1) mean gaps: from one gap to the span of a long window.
// The target for a gap is log(max(tau / s, kMinScaledGap)): a zero gap is scored as a gap of
// kMinScaledGap s, so its log density stays finite.
#include "core/events/event_model_config.hpp"

namespace aaren {

inline constexpr double kMinScaledGap = 1e-6;

template <class T>
void event_features(T* x /*(C_in)*/, double gap, double since_origin, double feature, const EventModelConfig& config);

double scaled_log_gap(double gap, double time_scale);

}  // namespace aaren
