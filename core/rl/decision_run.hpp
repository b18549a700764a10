#pragma once
// The whole workflow behind `aaren train --task rl` (docs/DESIGN.md section 11): read an offline data
// set, hold a share of its episodes out for the validation loss, prepare the rest (returns-to-go,
// standardized states, actions in [-1, 1]), train a Decision Transformer on segments of them with
// the best weights kept on disk as they improve, then let the best weights act in the environment
// for a number of seeded episodes and record their returns, normalized scores and per-step costs.
// The best weights are those of the epoch whose policy scores highest acting for a few episodes from
// seeds of their own (kSelectionFirstSeed on, apart from the evaluation's): the held-out action MSE
// rewards imitating the data's noisy half as much as its expert half, and on medium-expert data it
// chose epochs that acted far worse than later ones (docs/DESIGN.md section 11).
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/rl/decision_evaluation.hpp"
#include "core/rl/decision_run_folder.hpp"
#include "core/train/memory_estimate.hpp"

namespace aaren::rl {

struct DecisionRunData {
  OfflineDataset dataset;
  std::vector<long> train, validation;  // indices into steps.episodes
  DecisionSteps steps;
};

// The seed of the first episode the weights are selected by; the evaluation's start at 1.
inline constexpr std::uint64_t kSelectionFirstSeed = 1001;

struct DecisionRunRequest {
  std::string data_path;
  // The architecture: backbone kind, d_model, heads, layers, d_ff, and the context in steps (window
  // mode; a stream's is the environment's time limit). The state and action sizes, the timestep
  // table and the return scale come from the data.
  DecisionConfig model;
  ActMode act_mode = ActMode::window;
  double val_fraction = 0.1;
  TrainSettings train;
  // The evaluation after training; its target return NaN: the environment's expert reference return.
  int evaluation_episodes = 10;
  // Episodes each epoch's weights act for to be selected by their mean score; 0: the epoch of the
  // lowest validation MSE is kept instead.
  int selection_episodes = 5;
  double target_return = std::numeric_limits<double>::quiet_NaN();
  std::string out_dir;
  std::function<void(const DecisionRunData&)> on_data_read;
  std::function<void(const TrainingMemoryCheck&)> on_memory_checked;
};

struct DecisionRunOutcome {
  DecisionRunConfig config;
  DecisionRunMetrics metrics;
};

// What trains in a few minutes on two cores: 10 epochs of at most 400 batches of 64 segments, at
// learning rate 3e-3.
TrainSettings decision_train_settings();
// The same for whole episodes (act mode stream): an episode is a few hundred steps, so batches of
// 4 and 20 epochs give about as many updates as the windows' settings, at the same learning rate.
TrainSettings decision_stream_train_settings();
// d_model 64, 4 heads, 2 layers, d_ff 128, context 20.
DecisionConfig decision_default_model();

// The target return an evaluation aims at unless told otherwise: the expert's reference return.
double default_target_return(const std::string& environment);
// `given`, or the default where it is NaN (not given).
double chosen_target_return(const std::string& environment, double given);

// Episodes split by a seeded shuffle: round(fraction * count) to validation, at least one and never
// all of them. Throws std::runtime_error naming the file when it has fewer than two episodes.
void split_episodes(DecisionRunData& data, double fraction, unsigned seed, const std::string& source);

// Trains one model and writes its run folder. Throws std::runtime_error for a file that cannot be
// read or used (naming it), before anything is written.
DecisionRunOutcome train_decision_run(const DecisionRunRequest& request, const TrainCallbacks& callbacks = {});

}  // namespace aaren::rl
