#pragma once
// Behaviour policies that generate the offline data sets: an expert per environment written in
// closed form, a random policy, and a degraded expert between them.
//   expert    pendulum: energy shaping (pump the energy E = thetadot^2 / 2 + 15 cos theta of the
//             equation thetadot' = 15 sin theta + 3 u to its upright value 15) until the pendulum is
//             within reach of the top, then LQR on the linearized step. cartpole: LQR. swing-up:
//             energy shaping of the pole through the cart's force, with the cart held near the
//             middle, then LQR once the pole is near upright. The LQR gains solve the discrete
//             Riccati equation of the environment's own step, linearized about upright by central
//             differences, so they follow its equations exactly.
//   random    actions uniform over the range.
//   noisy     the expert's action plus Gaussian noise of deviation `jitter` times the action bound,
//             replaced by a random one with probability `random_share` at each step (ActionNoise,
//             core/rl/reference_returns.hpp): share 0 is the expert with its jitter, 1 the random
//             policy. The data sets' expert has the jitter its environment records, as D4RL's were
//             sampled from stochastic policies: without it the expert's data never leave its path,
//             and a model that clones them never saw how to come back to it (docs/DESIGN.md
//             section 11).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/rl/environment.hpp"
#include "core/rl/reference_returns.hpp"
#include "core/util/seeded_uniform.hpp"

namespace aaren::rl {

class Policy {
 public:
  virtual ~Policy() = default;
  // The action (spec().action_dim values) for the environment's current state.
  virtual std::vector<double> act(const Environment& environment) = 0;
};

// The closed-form expert of the environment named `name`.
std::unique_ptr<Policy> make_expert(std::string_view name);

class RandomPolicy : public Policy {
 public:
  explicit RandomPolicy(std::uint64_t seed) : uniform_(seed) {}
  std::vector<double> act(const Environment& environment) override;

 private:
  SeededUniform uniform_;
};

class NoisyExpert : public Policy {
 public:
  // Throws std::invalid_argument for a random share outside [0, 1] or a jitter below 0.
  NoisyExpert(std::string_view environment, ActionNoise noise, std::uint64_t seed);
  std::vector<double> act(const Environment& environment) override;

 private:
  std::unique_ptr<Policy> expert_;
  RandomPolicy random_;
  ActionNoise noise_;
  SeededUniform coin_, gauss_;
};

struct EpisodeSummary {
  double total_reward = 0;
  int steps = 0;
  bool terminal = false;
};

// One episode of `policy` from the start drawn with `seed`, to its end.
EpisodeSummary run_episode(Environment& environment, Policy& policy, std::uint64_t seed);

}  // namespace aaren::rl
