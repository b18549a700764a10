#pragma once
// `aaren bench act`: what one step of a Decision Transformer acting costs, by model and act mode
// (core/rl/decision_actor.hpp), over an episode of N steps on random weights and inputs: the
// window re-runs its last K steps at every step, so its time grows with K and stops growing once
// the episode is K steps long; the stream takes each token once, so Aaren's and the linear
// Transformer's time and state stay flat over the whole episode while the Transformer's KV cache
// grows with every step.
#include <cstddef>
#include <vector>

#include "core/rl/decision_actor.hpp"
#include "core/rl/decision_config.hpp"

namespace aaren::bench {

struct ActBenchOptions {
  rl::DecisionConfig model;         // the architecture; state_dim, action_dim; context and seq_len are set per row
  std::vector<ModelKind> kinds;
  std::vector<int> contexts{20, 60, 200};  // the windows timed
  long steps = 1000;                // the episode's length
  int window = 100;                 // the steps whose median is each end's time
  unsigned seed = 1;
};

struct ActBenchRow {
  ModelKind kind = ModelKind::aaren;
  rl::ActMode mode = rl::ActMode::window;
  int context = 0;                   // window's K; 0 for a stream
  double first_seconds = 0;          // median over the first `window` steps
  double last_seconds = 0;           // median over the last `window` steps
  std::size_t first_bytes = 0, last_bytes = 0;  // the state kept after the first and the last step
  std::vector<double> step_seconds;  // (steps)
};

// One row per kind: its stream, then a window per context. Throws std::invalid_argument for fewer
// steps than twice the window.
std::vector<ActBenchRow> bench_decision_act(const ActBenchOptions& options);

}  // namespace aaren::bench
