#include "core/rl/decision_evaluation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/model/parameter_layout.hpp"
#include "core/rl/environment.hpp"
#include "core/rl/reference_returns.hpp"

namespace aaren::rl {

namespace {

// The mean and the sample deviation (0 for fewer than two values).
std::pair<double, double> mean_and_deviation(const std::vector<double>& values) {
  if (values.empty()) return {0, 0};
  double mean = 0;
  for (double v : values) mean += v;
  mean /= double(values.size());
  if (values.size() < 2) return {mean, 0};
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return {mean, std::sqrt(squares / double(values.size() - 1))};
}

}  // namespace

void EpisodeOutcome::reserve(int steps, int observation_dim, int action_dim) {
  const std::size_t n = std::size_t(steps);
  step_seconds.reserve(n);
  state_bytes.reserve(n);
  observations.reserve(n * std::size_t(observation_dim));
  actions.reserve(n * std::size_t(action_dim));
  rewards.reserve(n);
  returns_to_go.reserve(n);
}

DecisionEvaluation evaluate_decision(const DecisionConfig& config, const DecisionDataPreparation& preparation,
                                     const std::vector<float>& params, const EvaluationSettings& settings) {
  if (settings.episodes < 1)
    throw std::invalid_argument("the evaluation needs at least 1 episode, got " + std::to_string(settings.episodes));
  if (!std::isfinite(settings.target_return)) throw std::invalid_argument("the target return must be a number");
  const ParameterLayout layout = ParameterLayout::for_decision(config);
  std::unique_ptr<Environment> environment = make_environment(preparation.environment);
  const int limit = environment->spec().time_limit, S = config.state_dim, A = config.action_dim;
  std::unique_ptr<DecisionActor> actor = make_decision_actor(settings.mode, config, layout, params.data(), limit);
  std::vector<float> state(std::size_t(S), 0.0f), action(std::size_t(A), 0.0f);
  std::vector<double> applied(std::size_t(A), 0.0);

  DecisionEvaluation evaluation;
  std::vector<double> scores, returns, all_steps;
  for (int e = 0; e < settings.episodes; ++e) {
    EpisodeOutcome outcome;
    outcome.seed = settings.first_seed + std::uint64_t(e);
    outcome.reserve(limit, S, A);
    std::vector<double> observation = environment->reset(outcome.seed);
    actor->reset();
    double to_go = settings.target_return;
    for (int t = 0;; ++t) {
      for (int j = 0; j < S; ++j) state[std::size_t(j)] = preparation.scaled_state(observation[std::size_t(j)], j);
      const auto start = std::chrono::steady_clock::now();
      const float* chosen = actor->act(float(to_go / preparation.return_scale), state.data(), t);
      std::copy(chosen, chosen + A, action.begin());
      actor->record_action(action.data());
      outcome.step_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      outcome.state_bytes.push_back(actor->state_bytes());
      for (int j = 0; j < A; ++j) applied[std::size_t(j)] = double(action[std::size_t(j)]) * preparation.action_scale;
      outcome.observations.insert(outcome.observations.end(), observation.begin(), observation.end());
      outcome.actions.insert(outcome.actions.end(), applied.begin(), applied.end());
      outcome.returns_to_go.push_back(to_go);
      const StepResult result = environment->step(applied);
      outcome.rewards.push_back(result.reward);
      observation = result.observation;
      outcome.total_reward += result.reward;
      to_go -= result.reward;
      ++outcome.steps;
      if (result.terminal || result.timeout) {
        outcome.terminal = result.terminal;
        break;
      }
    }
    outcome.normalized_score = normalized_score(preparation.environment, outcome.total_reward);
    scores.push_back(outcome.normalized_score);
    returns.push_back(outcome.total_reward);
    all_steps.insert(all_steps.end(), outcome.step_seconds.begin(), outcome.step_seconds.end());
    evaluation.episodes.push_back(std::move(outcome));
  }
  std::tie(evaluation.score_mean, evaluation.score_sd) = mean_and_deviation(scores);
  evaluation.return_mean = mean_and_deviation(returns).first;
  std::nth_element(all_steps.begin(), all_steps.begin() + long(all_steps.size() / 2), all_steps.end());
  evaluation.median_step_seconds = all_steps[all_steps.size() / 2];
  return evaluation;
}

}  // namespace aaren::rl
