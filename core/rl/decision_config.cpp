#include "core/rl/decision_config.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace aaren::rl {

void DecisionConfig::validate() const {
  backbone.validate();
  const auto between = [](int value, const char* name, int low, int high) {
    if (value < low || value > high)
      throw std::invalid_argument(std::string(name) + " must be between " + std::to_string(low) + " and " +
                                  std::to_string(high) + ", got " + std::to_string(value));
  };
  between(state_dim, "state_dim", 1, 4096);
  between(action_dim, "action_dim", 1, 4096);
  between(context, "context", 1, 1 << 18);
  between(max_timestep, "max_timestep", 1, 1 << 20);
  if (backbone.seq_len != tokens(context))
    throw std::invalid_argument("the backbone takes " + std::to_string(backbone.seq_len) + " tokens, but a context of " +
                                std::to_string(context) + " steps is " + std::to_string(tokens(context)) + " tokens");
  if (backbone.channels != state_dim)
    throw std::invalid_argument("the backbone's channels (" + std::to_string(backbone.channels) +
                                ") must be the state's " + std::to_string(state_dim) + " values");
  if (!(std::isfinite(return_scale) && return_scale > 0))
    throw std::invalid_argument("return_scale must be a positive number, got " + std::to_string(return_scale));
}

}  // namespace aaren::rl
