#pragma once
// An offline data set (core/rl/offline_dataset.hpp) as the Decision Transformer reads it
// (docs/DESIGN.md section 11): split into episodes (an episode ends at a row whose terminal or
// timeout is 1, or at the last row), each step's return-to-go (the sum of the rewards from that
// step to its episode's end) divided by the return scale, states standardized with the training
// episodes' mean and deviation, actions divided by the environment's action bound so that they lie
// in [-1, 1] like the tanh head's, and each step's index in its episode.
#include <string>
#include <vector>

#include "core/rl/offline_dataset.hpp"

namespace aaren::rl {

struct EpisodeRows {
  long begin = 0;  // the first row
  int length = 0;  // steps
};

// How the data set was prepared for a model; kept in the run's config.json.
struct DecisionDataPreparation {
  std::string data_file;
  std::string environment, policy;
  std::vector<double> state_mean, state_std;  // (S) of the training episodes' states
  double action_scale = 1;                    // the environment's action bound
  double return_scale = 1;                    // returns-to-go are divided by it
  double val_fraction = 0.1;                  // of the episodes, held out for the validation loss

  float scaled_state(double value, int j) const { return float((value - state_mean[std::size_t(j)]) / state_std[std::size_t(j)]); }
};

struct DecisionSteps {
  int state_dim = 0, action_dim = 0;
  std::vector<float> returns_to_go;  // (N) scaled
  std::vector<float> states;         // (N, S) standardized
  std::vector<float> actions;        // (N, A) in [-1, 1]
  std::vector<int> timesteps;        // (N) the step's index in its episode
  std::vector<EpisodeRows> episodes;
};

// The episodes of a data set, in order.
std::vector<EpisodeRows> dataset_episodes(const OfflineDataset& dataset);

// The returns scale of an environment: the larger magnitude of its random and expert reference
// returns (core/rl/reference_returns.hpp), so that scaled returns-to-go lie within about [-1, 1].
double return_scale_of(const std::string& environment);

// The training episodes' state statistics and the environment's scales. Throws std::invalid_argument
// when `training` is empty.
DecisionDataPreparation fit_decision_preparation(const OfflineDataset& dataset,
                                                 const std::vector<EpisodeRows>& training);

// Every row of the data set prepared as `preparation` says.
DecisionSteps prepare_decision_steps(const OfflineDataset& dataset, const DecisionDataPreparation& preparation);

}  // namespace aaren::rl
