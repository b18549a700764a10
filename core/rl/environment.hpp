#pragma once
// The reinforcement-learning setting's environments (the paper's section 4.1, on dynamics written
// here from their published equations): each is deterministic given its seed or start state, with
// its dynamics, observation, action range, reward, termination and time limit documented in its own
// file (core/rl/pendulum.hpp, core/rl/cart_pole.hpp).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace aaren::rl {

struct EnvironmentSpec {
  std::string name;                   // "pendulum", "cartpole", "cartpole-swingup"
  std::vector<std::string> state;     // the names of the state variables, the order of --start
  std::vector<std::string> observation;
  int action_dim = 1;
  double action_low = -1, action_high = 1;  // actions outside are clipped
  int time_limit = 0;                       // steps, after which an episode times out
};

struct StepResult {
  std::vector<double> observation;  // after the action
  double reward = 0;
  bool terminal = false;  // the episode ended by the task's rule (the pole fell, the cart left the track)
  bool timeout = false;   // the time limit was reached without a terminal state
};

class Environment {
 public:
  virtual ~Environment() = default;
  virtual const EnvironmentSpec& spec() const = 0;

  // A new episode from the environment's start distribution, drawn with `seed`; the observation.
  std::vector<double> reset(std::uint64_t seed);
  // A new episode from `state` (spec().state's order); throws std::invalid_argument for the wrong
  // number of values or a value that is not finite.
  std::vector<double> reset_to(std::span<const double> state);
  // One step with `action` (clipped to the range). Throws std::logic_error after the episode ended,
  // std::invalid_argument for the wrong number of actions or a value that is not finite.
  StepResult step(std::span<const double> action);

  std::span<const double> state() const { return state_; }
  int steps_taken() const { return steps_; }

 protected:
  virtual std::vector<double> draw_start(std::uint64_t seed) const = 0;
  virtual std::vector<double> observe(std::span<const double> state) const = 0;
  // Advances state_ with the clipped action; returns the reward and whether the state is terminal.
  virtual std::pair<double, bool> advance(std::vector<double>& state, std::span<const double> action) const = 0;

 private:
  std::vector<double> state_;
  int steps_ = 0;
  bool ended_ = true;
};

std::unique_ptr<Environment> make_environment(std::string_view name);  // throws std::invalid_argument
std::string environment_names();  // "pendulum, cartpole, cartpole-swingup"

}  // namespace aaren::rl
