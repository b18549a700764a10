#include "core/rl/reference_returns.hpp"

#include <stdexcept>
#include <string>

#include "core/rl/environment.hpp"

namespace aaren::rl {

const ReferenceReturns& reference_returns(std::string_view environment) {
  static const ReferenceReturns pendulum{-1198.518, -146.395, 0.70};
  static const ReferenceReturns cartpole{30.060, 500.000, 0.57};
  static const ReferenceReturns swingUp{22.503, 443.250, 0.75};
  if (environment == "pendulum") return pendulum;
  if (environment == "cartpole") return cartpole;
  if (environment == "cartpole-swingup") return swingUp;
  throw std::invalid_argument("unknown environment '" + std::string(environment) + "'; choose one of: " + environment_names());
}

double normalized_score(std::string_view environment, double episode_return) {
  const ReferenceReturns& reference = reference_returns(environment);
  return 100.0 * (episode_return - reference.random) / (reference.expert - reference.random);
}

}  // namespace aaren::rl
