#pragma once
// The architecture of the Decision Transformer (core/rl/decision_transformer.hpp).
#include "core/model/model_config.hpp"

namespace aaren::rl {

// The longest context the command line and the app offer (in steps; three tokens each).
inline constexpr int kMostDecisionContext = 4096;

struct DecisionConfig {
  // The shared blocks: kind, d_model, heads, layers, d_ff. seq_len is the tokens the model takes,
  // 3 per step (return-to-go, state, action), so 3 * context; channels is state_dim; horizon is 1.
  ModelConfig backbone;
  int state_dim = 1;       // S, the observation's values
  int action_dim = 1;      // A
  int context = 20;        // K, the steps one forward reads (the whole episode when acting as a stream)
  int max_timestep = 500;  // rows of the timestep embedding; later steps read its last row
  double return_scale = 1; // returns-to-go are divided by it before they are embedded

  int tokens(int steps) const { return 3 * steps; }
  // Throws std::invalid_argument naming the setting ("context must be between 1 and ..., got 0").
  void validate() const;
};

}  // namespace aaren::rl
