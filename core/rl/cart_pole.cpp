#include "core/rl/cart_pole.hpp"

#include <cmath>
#include <numbers>

#include "core/util/seeded_uniform.hpp"

namespace aaren::rl {

CartPole::CartPole(bool swingUp) : swing_up_(swingUp) {}

const EnvironmentSpec& CartPole::spec() const {
  static const EnvironmentSpec balance{"cartpole", {"x", "xdot", "theta", "thetadot"}, {"x", "xdot", "theta", "thetadot"},
                                       1, -1.0, 1.0, kTimeLimit};
  static const EnvironmentSpec swingUp{"cartpole-swingup", {"x", "xdot", "theta", "thetadot"},
                                       {"x", "xdot", "cos theta", "sin theta", "thetadot"}, 1, -1.0, 1.0, kTimeLimit};
  return swing_up_ ? swingUp : balance;
}

void CartPole::integrate(std::span<double> state, double force) {
  const double x = state[0], xdot = state[1], theta = state[2], thetadot = state[3];
  const double total = kCartMass + kPoleMass;
  const double cos_theta = std::cos(theta), sin_theta = std::sin(theta);
  const double temp = (force + kPoleMass * kHalfLength * thetadot * thetadot * sin_theta) / total;
  const double thetaacc =
      (kGravity * sin_theta - cos_theta * temp) / (kHalfLength * (4.0 / 3.0 - kPoleMass * cos_theta * cos_theta / total));
  const double xacc = temp - kPoleMass * kHalfLength * thetaacc * cos_theta / total;
  state[0] = x + kTau * xdot;
  state[1] = xdot + kTau * xacc;
  state[2] = theta + kTau * thetadot;
  state[3] = thetadot + kTau * thetaacc;
}

std::vector<double> CartPole::draw_start(std::uint64_t seed) const {
  SeededUniform uniform(seed);
  std::vector<double> state(4);
  for (double& value : state) value = uniform(-0.05, 0.05);
  if (swing_up_) state[2] += std::numbers::pi;
  return state;
}

std::vector<double> CartPole::observe(std::span<const double> state) const {
  if (!swing_up_) return {state.begin(), state.end()};
  return {state[0], state[1], std::cos(state[2]), std::sin(state[2]), state[3]};
}

std::pair<double, bool> CartPole::advance(std::vector<double>& state, std::span<const double> action) const {
  integrate(state, kForceScale * action[0]);
  if (!swing_up_) {
    const bool fell = std::abs(state[0]) > kBalanceTrack || std::abs(state[2]) > kBalanceAngle;
    return {1.0, fell};
  }
  const double reward = (1 + std::cos(state[2])) / 2 - 0.01 * action[0] * action[0];
  return {reward, std::abs(state[0]) > kSwingUpTrack};
}

}  // namespace aaren::rl
