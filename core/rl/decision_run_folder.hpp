#pragma once
// The run folder of a Decision Transformer (docs/DESIGN.md sections 9 and 11). Its four files and how
// they are written and checked are every task's (core/train/run_folder_format.hpp); what is its own:
//   config.json        "task": "rl"; model: kind, d_model, heads, layers, d_ff, state_dim,
//                      action_dim, context, max_timestep, return_scale, act_mode; data: file,
//                      environment, policy, state_mean, state_std, action_scale, val_fraction;
//                      training
//   model.safetensors  the best weights by ParameterLayout::for_decision's names, with the metadata
//                      every run carries and "task": "rl"
//   metrics.json       per-epoch losses (the validation loss is the held-out episodes' action MSE);
//                      evaluation {target_return, act_mode, episodes [{seed, return,
//                      normalized_score, steps, terminal}], score_mean, score_sd, return_mean,
//                      median_step_seconds, state_bytes (after the first episode's last step)}
//   loss.csv           epoch, train_loss, val_loss
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rl/decision_actor.hpp"
#include "core/rl/decision_data.hpp"
#include "core/rl/decision_evaluation.hpp"
#include "core/train/run_folder_format.hpp"

namespace aaren::rl {

inline constexpr const char* kDecisionRunTask = "rl";  // config.json's "task" (kDecisionRuns)

struct DecisionRunConfig {
  int version = kRunFormatVersion;
  DecisionConfig model;
  ActMode act_mode = ActMode::window;  // how it was trained to act, and acts unless told otherwise
  DecisionDataPreparation data;
  TrainSettings train;
};

// What metrics.json keeps of an evaluation: the episodes without their per-step measurements.
struct DecisionEvaluationSummary {
  double target_return = 0;
  ActMode act_mode = ActMode::window;
  std::vector<EpisodeOutcome> episodes;  // step_seconds and state_bytes empty
  double score_mean = 0, score_sd = 0, return_mean = 0, median_step_seconds = 0;
  std::size_t state_bytes = 0;

  static DecisionEvaluationSummary of(const DecisionEvaluation& evaluation, double target_return, ActMode mode);
};

struct DecisionRunMetrics : TrainingHistory {
  double validation_mse = 0;  // of the best weights on the held-out episodes
  // The episodes each epoch acted for to select the best (its score each epoch's val_score);
  // 0: the lowest validation MSE selected.
  int selection_episodes = 0;
  std::optional<DecisionEvaluationSummary> evaluation;
};

std::string decision_run_config_json(const DecisionRunConfig& config);
// Throws std::runtime_error naming the file and field; another task's run is refused as such.
DecisionRunConfig parse_decision_run_config(std::string_view text, const std::string& source);

std::string serialize_decision_checkpoint(const DecisionRunConfig& config, const std::vector<float>& params);
std::vector<float> parse_decision_checkpoint(std::string_view bytes, const std::string& source,
                                             const DecisionRunConfig& config);

void write_decision_run_config(const std::string& dir, const DecisionRunConfig& config);
void write_decision_checkpoint(const std::string& dir, const DecisionRunConfig& config, const std::vector<float>& params);
void write_decision_run_metrics(const std::string& dir, const DecisionRunMetrics& metrics);
DecisionRunMetrics parse_decision_run_metrics(std::string_view text, const std::string& source);

using LoadedDecisionRun = LoadedRunFolder<DecisionRunConfig, DecisionRunMetrics>;
// Validates the folder, the configuration and the checkpoint against each other.
LoadedDecisionRun load_decision_run(const std::string& dir);

}  // namespace aaren::rl
