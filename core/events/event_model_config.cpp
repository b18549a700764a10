#include "core/events/event_model_config.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace aaren {

namespace {

void require_between(int value, const char* name, int min_value, int max_value) {
  if (value < min_value || value > max_value)
    throw std::invalid_argument(std::string(name) + " must be between " + std::to_string(min_value) + " and " +
                                std::to_string(max_value) + ", got " + std::to_string(value));
}

}  // namespace

void EventModelConfig::validate() const {
  backbone.validate();
  require_between(marks, "marks", 0, 1 << 16);
  require_between(mixture_components, "mixture_components", 1, 256);
  // Periods double per frequency (event_features.hpp); beyond 2^30 mean gaps they add nothing.
  require_between(time_frequencies, "time_frequencies", 0, 30);
  if (!(std::isfinite(time_scale) && time_scale > 0)) {
    std::ostringstream message;
    message << "time_scale must be a positive number (the training data's mean gap between events), got "
            << time_scale;
    throw std::invalid_argument(message.str());
  }
}

}  // namespace aaren
