#include "core/rl/decision_data.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rl/environment.hpp"
#include "core/rl/reference_returns.hpp"

namespace aaren::rl {

std::vector<EpisodeRows> dataset_episodes(const OfflineDataset& dataset) {
  std::vector<EpisodeRows> episodes;
  long begin = 0;
  const long n = dataset.steps();
  for (long i = 0; i < n; ++i)
    if (dataset.terminals[std::size_t(i)] != 0 || dataset.timeouts[std::size_t(i)] != 0 || i == n - 1) {
      episodes.push_back({begin, int(i + 1 - begin)});
      begin = i + 1;
    }
  return episodes;
}

double return_scale_of(const std::string& environment) {
  const ReferenceReturns& r = reference_returns(environment);
  return std::max(std::abs(r.random), std::abs(r.expert));
}

DecisionDataPreparation fit_decision_preparation(const OfflineDataset& dataset,
                                                 const std::vector<EpisodeRows>& training) {
  if (training.empty()) throw std::invalid_argument("there are no training episodes to prepare the states from");
  const int S = dataset.observation_dim;
  DecisionDataPreparation p;
  p.environment = dataset.environment;
  p.policy = dataset.policy;
  p.state_mean.assign(std::size_t(S), 0.0);
  p.state_std.assign(std::size_t(S), 0.0);
  long rows = 0;
  for (const EpisodeRows& e : training)
    for (long i = e.begin; i < e.begin + e.length; ++i, ++rows)
      for (int j = 0; j < S; ++j) p.state_mean[std::size_t(j)] += dataset.observations[std::size_t(i * S + j)];
  for (double& m : p.state_mean) m /= double(rows);
  for (const EpisodeRows& e : training)
    for (long i = e.begin; i < e.begin + e.length; ++i)
      for (int j = 0; j < S; ++j) {
        const double d = dataset.observations[std::size_t(i * S + j)] - p.state_mean[std::size_t(j)];
        p.state_std[std::size_t(j)] += d * d;
      }
  // A state value that never varies is standardized to 0 rather than divided by 0.
  for (double& s : p.state_std) s = std::max(std::sqrt(s / double(rows)), 1e-6);
  p.action_scale = make_environment(dataset.environment)->spec().action_high;
  p.return_scale = return_scale_of(dataset.environment);
  return p;
}

DecisionSteps prepare_decision_steps(const OfflineDataset& dataset, const DecisionDataPreparation& p) {
  const int S = dataset.observation_dim, A = dataset.action_dim;
  if (std::size_t(S) != p.state_mean.size())
    throw std::invalid_argument("the data set's states have " + std::to_string(S) + " values, the model's " +
                                std::to_string(p.state_mean.size()));
  DecisionSteps d;
  d.state_dim = S;
  d.action_dim = A;
  d.episodes = dataset_episodes(dataset);
  const std::size_t n = std::size_t(dataset.steps());
  d.returns_to_go.resize(n);
  d.timesteps.resize(n);
  d.states.resize(n * std::size_t(S));
  d.actions.resize(n * std::size_t(A));
  for (const EpisodeRows& e : d.episodes) {
    double to_go = 0;
    for (long i = e.begin + e.length - 1; i >= e.begin; --i) {
      to_go += dataset.rewards[std::size_t(i)];
      d.returns_to_go[std::size_t(i)] = float(to_go / p.return_scale);
      d.timesteps[std::size_t(i)] = int(i - e.begin);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (int j = 0; j < S; ++j) d.states[i * std::size_t(S) + std::size_t(j)] = p.scaled_state(dataset.observations[i * std::size_t(S) + std::size_t(j)], j);
    for (int j = 0; j < A; ++j)
      d.actions[i * std::size_t(A) + std::size_t(j)] =
          float(std::clamp(dataset.actions[i * std::size_t(A) + std::size_t(j)] / p.action_scale, -1.0, 1.0));
  }
  return d;
}

}  // namespace aaren::rl
