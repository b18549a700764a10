#include "core/bench/decision_act_bench.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>
#include <string>

#include "core/model/parameter_init.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren::bench {

namespace {

double median_of(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + long(values.size() / 2), values.end());
  return values[values.size() / 2];
}

ActBenchRow time_actor(const rl::DecisionConfig& config, rl::ActMode mode, const ActBenchOptions& o) {
  const ParameterLayout layout = ParameterLayout::for_decision(config);
  std::mt19937 rng(o.seed);
  std::vector<float> params;
  init_parameters(params, layout, rng);
  const auto actor = rl::make_decision_actor(mode, config, layout, params.data(), o.steps);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> state(std::size_t(config.state_dim)), action(std::size_t(config.action_dim));
  ActBenchRow row;
  row.kind = config.backbone.kind;
  row.mode = mode;
  row.context = mode == rl::ActMode::window ? config.context : 0;
  for (long t = 0; t < o.steps; ++t) {
    for (float& s : state) s = normal(rng);
    const auto start = std::chrono::steady_clock::now();
    const float* chosen = actor->act(normal(rng), state.data(), int(t));
    std::copy(chosen, chosen + config.action_dim, action.begin());
    actor->record_action(action.data());
    row.step_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (t == 0) row.first_bytes = actor->state_bytes();
  }
  row.last_bytes = actor->state_bytes();
  const auto w = long(o.window);
  row.first_seconds = median_of({row.step_seconds.begin(), row.step_seconds.begin() + w});
  row.last_seconds = median_of({row.step_seconds.end() - w, row.step_seconds.end()});
  return row;
}

}  // namespace

std::vector<ActBenchRow> bench_decision_act(const ActBenchOptions& o) {
  if (o.window < 1 || o.steps < 2L * o.window)
    throw std::invalid_argument("the episode of " + std::to_string(o.steps) + " steps must be at least twice the " +
                                std::to_string(o.window) + " steps timed at each end");
  std::vector<ActBenchRow> rows;
  for (const ModelKind kind : o.kinds) {
    rl::DecisionConfig config = o.model;
    config.backbone.kind = kind;
    config.backbone.channels = config.state_dim;
    config.backbone.horizon = 1;
    config.max_timestep = int(o.steps);
    // A stream's context only sizes the training buffers, which acting does not use.
    config.context = 1;
    config.backbone.seq_len = config.tokens(1);
    rows.push_back(time_actor(config, rl::ActMode::stream, o));
    for (const int k : o.contexts) {
      config.context = k;
      config.backbone.seq_len = config.tokens(k);
      rows.push_back(time_actor(config, rl::ActMode::window, o));
    }
  }
  return rows;
}

}  // namespace aaren::bench
