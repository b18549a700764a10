#include "ui/rl/act_results.hpp"

#include <QDir>
#include <algorithm>
#include <stdexcept>

#include "core/rl/decision_run.hpp"
#include "core/runs/run_catalog.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

int ActResults::longestEpisode() const {
  int longest = 0;
  for (const ActedModel& model : models) longest = std::max(longest, model.episode.steps);
  return longest;
}

ActResults actRun(const QString& runDir, const ActSettings& settings, const CancelToken& token) {
  const std::string dir = QDir::toNativeSeparators(runDir).toStdString();
  const std::vector<std::string> folders = run_model_folders(dir);
  if (folders.empty())
    throw std::runtime_error(dir + ": not a run folder (no config.json, nor a model's run in aaren/, transformer/ or linear/)");
  ActResults results;
  results.runDir = runDir;
  results.seed = settings.seed;
  for (std::size_t i = 0; i < folders.size(); ++i) {
    if (token.cancelled()) throw ReadCancelled("acting was cancelled");
    const rl::LoadedDecisionRun run = rl::load_decision_run(folders[i]);
    if (i == 0) {
      results.environment = run.config.data.environment;
      results.target_return = rl::chosen_target_return(results.environment, settings.target_return);
    } else if (run.config.data.environment != results.environment) {
      throw std::runtime_error(folders[i] + ": acts in " + run.config.data.environment + ", the run's first model in " +
                               results.environment);
    }
    ActedModel model;
    model.kind = run.config.model.backbone.kind;
    model.name = displayName(model.kind);
    model.config = run.config;
    if (run.has_metrics) model.evaluation = run.metrics.evaluation;
    model.mode = settings.mode.value_or(run.config.act_mode);
    rl::EvaluationSettings evaluation;
    evaluation.episodes = 1;
    evaluation.first_seed = settings.seed;
    evaluation.target_return = results.target_return;
    evaluation.mode = model.mode;
    model.episode = rl::evaluate_decision(run.config.model, run.config.data, run.params, evaluation).episodes.front();
    results.models.push_back(std::move(model));
    if (token.progress) token.progress(double(i + 1) / double(folders.size()));
  }
  return results;
}

}  // namespace aaren::ui
