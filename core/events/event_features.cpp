#include "core/events/event_features.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace aaren {

template <class T>
void event_features(T* x, double gap, double since_origin, double feature, const EventModelConfig& config) {
  const double s = config.time_scale;
  x[0] = T(std::log(gap / s + kMinScaledGap));
  const double turns = since_origin / s;
  for (int f = 0; f < config.time_frequencies; ++f) {
    const double angle = 2 * std::numbers::pi * turns / std::ldexp(1.0, f);
    x[1 + 2 * f] = T(std::sin(angle));
    x[2 + 2 * f] = T(std::cos(angle));
  }
  if (config.feature) x[1 + 2 * config.time_frequencies] = T(feature);
}

double scaled_log_gap(double gap, double time_scale) { return std::log(std::max(gap / time_scale, kMinScaledGap)); }

template void event_features<float>(float*, double, double, double, const EventModelConfig&);
template void event_features<double>(double*, double, double, double, const EventModelConfig&);

}  // namespace aaren
