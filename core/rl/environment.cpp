#include "core/rl/environment.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rl/cart_pole.hpp"
#include "core/rl/pendulum.hpp"

namespace aaren::rl {

namespace {

void check_finite(std::span<const double> values, const std::string& what) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw std::invalid_argument(what + " " + std::to_string(i + 1) + " is not a finite number");
}

}  // namespace

std::vector<double> Environment::reset(std::uint64_t seed) {
  state_ = draw_start(seed);
  steps_ = 0;
  ended_ = false;
  return observe(state_);
}

std::vector<double> Environment::reset_to(std::span<const double> state) {
  if (state.size() != spec().state.size())
    throw std::invalid_argument(spec().name + " starts from " + std::to_string(spec().state.size()) + " values (" +
                                [&] {
                                  std::string names;
                                  for (const std::string& name : spec().state) names += (names.empty() ? "" : ", ") + name;
                                  return names;
                                }() +
                                "), not " + std::to_string(state.size()));
  check_finite(state, "start value");
  state_.assign(state.begin(), state.end());
  steps_ = 0;
  ended_ = false;
  return observe(state_);
}

StepResult Environment::step(std::span<const double> action) {
  if (ended_) throw std::logic_error(spec().name + ": the episode has ended; reset it before the next step");
  if (int(action.size()) != spec().action_dim)
    throw std::invalid_argument(spec().name + " takes " + std::to_string(spec().action_dim) + " action value(s), not " +
                                std::to_string(action.size()));
  check_finite(action, "action value");
  std::vector<double> clipped(action.begin(), action.end());
  for (double& a : clipped) a = std::clamp(a, spec().action_low, spec().action_high);
  StepResult result;
  std::tie(result.reward, result.terminal) = advance(state_, clipped);
  ++steps_;
  result.timeout = !result.terminal && steps_ >= spec().time_limit;
  ended_ = result.terminal || result.timeout;
  result.observation = observe(state_);
  return result;
}

std::unique_ptr<Environment> make_environment(std::string_view name) {
  if (name == "pendulum") return std::make_unique<Pendulum>();
  if (name == "cartpole") return std::make_unique<CartPole>(false);
  if (name == "cartpole-swingup") return std::make_unique<CartPole>(true);
  throw std::invalid_argument("unknown environment '" + std::string(name) + "'; choose one of: " + environment_names());
}

std::string environment_names() { return "pendulum, cartpole, cartpole-swingup"; }

}  // namespace aaren::rl
