#include "core/rl/pendulum.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/util/seeded_uniform.hpp"

namespace aaren::rl {

double angle_normalize(double theta) {
  const double period = 2 * std::numbers::pi;
  return theta - period * std::floor((theta + std::numbers::pi) / period);
}

const EnvironmentSpec& Pendulum::spec() const {
  static const EnvironmentSpec spec{"pendulum", {"theta", "thetadot"}, {"cos theta", "sin theta", "thetadot"}, 1,
                                    -kMaxTorque, kMaxTorque, kTimeLimit};
  return spec;
}

std::vector<double> Pendulum::draw_start(std::uint64_t seed) const {
  SeededUniform uniform(seed);
  const double theta = uniform(-std::numbers::pi, std::numbers::pi);
  const double thetadot = uniform(-1.0, 1.0);
  return {theta, thetadot};
}

std::vector<double> Pendulum::observe(std::span<const double> state) const {
  return {std::cos(state[0]), std::sin(state[0]), state[1]};
}

std::pair<double, bool> Pendulum::advance(std::vector<double>& state, std::span<const double> action) const {
  const double theta = state[0], thetadot = state[1], u = action[0];
  const double reward = -(angle_normalize(theta) * angle_normalize(theta) + 0.1 * thetadot * thetadot + 0.001 * u * u);
  const double next_thetadot = std::clamp(
      thetadot + (3 * kGravity / (2 * kLength) * std::sin(theta) + 3.0 / (kMass * kLength * kLength) * u) * kDt, -kMaxSpeed,
      kMaxSpeed);
  state[0] = theta + next_thetadot * kDt;
  state[1] = next_thetadot;
  return {reward, false};
}

}  // namespace aaren::rl
