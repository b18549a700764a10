#pragma once
// A trained Decision Transformer acting in its environment (docs/DESIGN.md section 11): each
// episode starts from the environment's start drawn with its seed, the return-to-go starts at the
// target return and falls by each reward, and the actor (core/rl/decision_actor.hpp) picks every
// action. Scores are normalized as D4RL's (core/rl/reference_returns.hpp). Each step's time (the
// action chosen and the taken action recorded) and the bytes the actor keeps are measured.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rl/decision_actor.hpp"
#include "core/rl/decision_data.hpp"

namespace aaren::rl {

struct EvaluationSettings {
  int episodes = 10;
  std::uint64_t first_seed = 1;  // episode e starts from the draw of seed first_seed + e
  double target_return = 0;      // in the environment's units
  ActMode mode = ActMode::window;
};

struct EpisodeOutcome {
  std::uint64_t seed = 0;
  double total_reward = 0;
  double normalized_score = 0;
  int steps = 0;
  bool terminal = false;
  std::vector<double> step_seconds;      // (steps) the actor's time for each step
  std::vector<std::size_t> state_bytes;  // (steps) what the actor keeps after each step
  // The trajectory, so that it can be replayed and drawn: the observation each step acted on, the
  // action applied (in the environment's units), its reward, and the return-to-go asked for.
  std::vector<double> observations;      // (steps, observation_dim)
  std::vector<double> actions;           // (steps, action_dim)
  std::vector<double> rewards;           // (steps)
  std::vector<double> returns_to_go;     // (steps)

  // Room for an episode of `steps` steps, so that acting allocates nothing as it goes.
  void reserve(int steps, int observation_dim, int action_dim);
};

struct DecisionEvaluation {
  std::vector<EpisodeOutcome> episodes;
  double score_mean = 0, score_sd = 0;  // over the episodes (the sample deviation; 0 for one)
  double return_mean = 0;
  double median_step_seconds = 0;       // over every step of every episode
};

// Throws std::invalid_argument for fewer than 1 episode or a target return that is not finite.
DecisionEvaluation evaluate_decision(const DecisionConfig& config, const DecisionDataPreparation& preparation,
                                     const std::vector<float>& params, const EvaluationSettings& settings);

}  // namespace aaren::rl
