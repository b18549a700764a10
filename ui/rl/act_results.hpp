#pragma once
// What the Act view shows, without widgets: every model of a Decision Transformer run (one, or
// side by side) acting for one seeded episode in its environment, each step's observation,
// action, reward, return-to-go, time and state bytes recorded as core's evaluation measures them
// (core/rl/decision_evaluation.hpp), beside the run's own evaluation from metrics.json. The view
// replays these recorded steps; every number it draws is one of them.
#include <QString>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/rl/decision_evaluation.hpp"
#include "core/rl/decision_run_folder.hpp"
#include "core/util/cancel_token.hpp"

namespace aaren::ui {

struct ActSettings {
  std::uint64_t seed = 1;                                         // the episode's start
  double target_return = std::numeric_limits<double>::quiet_NaN();  // NaN: the expert's reference return
  std::optional<rl::ActMode> mode;                                // none: each model's own
};

struct ActedModel {
  ModelKind kind = ModelKind::aaren;
  QString name;  // "Aaren", "Transformer", "Linear Transformer"
  rl::DecisionRunConfig config;
  std::optional<rl::DecisionEvaluationSummary> evaluation;  // the run's, after training
  rl::EpisodeOutcome episode;                               // acted now
  rl::ActMode mode = rl::ActMode::window;                   // how it acted now
};

struct ActResults {
  QString runDir;
  std::string environment;
  double target_return = 0;
  std::uint64_t seed = 1;
  std::vector<ActedModel> models;

  int longestEpisode() const;  // steps
};

// Throws std::runtime_error naming the file for a folder that is not a Decision Transformer run,
// and ReadCancelled when `token` is cancelled between models.
ActResults actRun(const QString& runDir, const ActSettings& settings, const CancelToken& token = {});

}  // namespace aaren::ui
