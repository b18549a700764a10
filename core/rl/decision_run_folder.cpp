#include "core/rl/decision_run_folder.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/json_fields.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren::rl {

using nlohmann::json;

namespace {

constexpr double kHuge = 1e300;

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

ActMode read_act_mode(const json& obj, const std::string& source) {
  const std::string name = json_string(obj, "act_mode", source);
  const auto mode = act_mode_from_string(name);
  if (!mode) fail(source, "field 'act_mode' must be 'window' or 'stream', got '" + name + "'");
  return *mode;
}

std::string describe(const DecisionRunConfig& c) {
  const ModelConfig& b = c.model.backbone;
  return model_noun_phrase(b.kind, "Decision Transformer") + " with d_model " + std::to_string(b.d_model) + ", " +
         count_of(b.heads, "head") + ", " + count_of(b.layers, "layer") + ", d_ff " + std::to_string(b.d_ff) +
         ", context " + std::to_string(c.model.context) + ", " + std::string(to_string(c.act_mode)) + " mode";
}

std::vector<std::string> model_differences(const DecisionRunConfig& a, const DecisionRunConfig& b) {
  std::vector<std::string> fields = backbone_differences(a.model.backbone, b.model.backbone);
  if (a.model.state_dim != b.model.state_dim) fields.push_back("state_dim");
  if (a.model.action_dim != b.model.action_dim) fields.push_back("action_dim");
  if (a.model.context != b.model.context) fields.push_back("context");
  if (a.model.max_timestep != b.model.max_timestep) fields.push_back("max_timestep");
  if (a.act_mode != b.act_mode) fields.push_back("act_mode");
  return fields;
}

std::vector<std::string> preparation_differences(const DecisionRunConfig& a, const DecisionRunConfig& b) {
  std::vector<std::string> fields;
  if (a.data.environment != b.data.environment) fields.push_back("environment");
  if (a.data.state_mean != b.data.state_mean || a.data.state_std != b.data.state_std) fields.push_back("state scaling");
  if (a.data.action_scale != b.data.action_scale || a.model.return_scale != b.model.return_scale)
    fields.push_back("action or return scale");
  if (a.data.val_fraction != b.data.val_fraction) fields.push_back("validation fraction");
  return fields;
}

void read_decision_model(const json& m, const std::string& ms, DecisionRunConfig& c) {
  DecisionConfig& model = c.model;
  model.state_dim = json_int(m, "state_dim", ms, 1, 4096);
  model.action_dim = json_int(m, "action_dim", ms, 1, 4096);
  model.context = json_int(m, "context", ms, 1, 1 << 18);
  model.max_timestep = json_int(m, "max_timestep", ms, 1, 1 << 20);
  model.return_scale = json_number(m, "return_scale", ms, 1e-300, kHuge);
  model.backbone.seq_len = model.tokens(model.context);
  model.backbone.channels = model.state_dim;
  model.backbone.horizon = 1;
  c.act_mode = read_act_mode(m, ms);
}

void read_decision_data(const json& d, const std::string& ds, DecisionRunConfig& c) {
  DecisionDataPreparation& data = c.data;
  data.data_file = json_string(d, "file", ds);
  data.environment = json_string(d, "environment", ds);
  data.policy = json_string(d, "policy", ds);
  const std::size_t S = std::size_t(c.model.state_dim);
  data.state_mean = json_number_list(d, "state_mean", ds, S);
  data.state_std = json_number_list(d, "state_std", ds, S);
  for (double s : data.state_std)
    if (!(s > 0) || !std::isfinite(s)) fail(ds, "field 'state_std' must hold positive numbers");
  data.action_scale = json_number(d, "action_scale", ds, 1e-300, kHuge);
  data.return_scale = c.model.return_scale;
  data.val_fraction = json_number(d, "val_fraction", ds, 0, 0.9);
}

json episode_json(const EpisodeOutcome& e) {
  return {{"seed", e.seed}, {"return", e.total_reward}, {"normalized_score", e.normalized_score},
          {"steps", e.steps}, {"terminal", e.terminal}};
}

}  // namespace

DecisionEvaluationSummary DecisionEvaluationSummary::of(const DecisionEvaluation& evaluation, double target_return,
                                                        ActMode mode) {
  DecisionEvaluationSummary s;
  s.target_return = target_return;
  s.act_mode = mode;
  for (const EpisodeOutcome& e : evaluation.episodes) {
    EpisodeOutcome& kept = s.episodes.emplace_back();  // without the per-step measurements
    kept.seed = e.seed;
    kept.total_reward = e.total_reward;
    kept.normalized_score = e.normalized_score;
    kept.steps = e.steps;
    kept.terminal = e.terminal;
  }
  s.score_mean = evaluation.score_mean;
  s.score_sd = evaluation.score_sd;
  s.return_mean = evaluation.return_mean;
  s.median_step_seconds = evaluation.median_step_seconds;
  const EpisodeOutcome& first = evaluation.episodes.front();
  s.state_bytes = first.state_bytes.empty() ? 0 : first.state_bytes.back();
  return s;
}

std::string decision_run_config_json(const DecisionRunConfig& c) {
  const DecisionConfig& m = c.model;
  const DecisionDataPreparation& d = c.data;
  json model = backbone_json(m.backbone);
  model.update({{"state_dim", m.state_dim}, {"action_dim", m.action_dim}, {"context", m.context},
                {"max_timestep", m.max_timestep}, {"return_scale", m.return_scale},
                {"act_mode", std::string(to_string(c.act_mode))}});
  const json data = {{"file", d.data_file},         {"environment", d.environment}, {"policy", d.policy},
                     {"state_mean", d.state_mean},   {"state_std", d.state_std},     {"action_scale", d.action_scale},
                     {"val_fraction", d.val_fraction}};
  return run_config_text(kDecisionRuns, model, data, c.train);
}

DecisionRunConfig parse_decision_run_config(std::string_view text, const std::string& source) {
  return parse_task_run_config<DecisionRunConfig>(
      text, source, kDecisionRuns, [](DecisionRunConfig& c) -> ModelConfig& { return c.model.backbone; },
      read_decision_model, read_decision_data);
}

std::string serialize_decision_checkpoint(const DecisionRunConfig& config, const std::vector<float>& params) {
  return serialize_run_parameters(ParameterLayout::for_decision(config.model), params,
                                  {{"task", kDecisionRunTask},
                                   {"model", std::string(to_string(config.model.backbone.kind))},
                                   {"config", decision_run_config_json(config)}},
                                  "Decision Transformer");
}

std::vector<float> parse_decision_checkpoint(std::string_view bytes, const std::string& source,
                                             const DecisionRunConfig& config) {
  const auto check_config = [&](const CheckpointMetadata& metadata, int) {
    const DecisionRunConfig written = parse_decision_run_config(required_metadata(metadata, "config", source),
                                                                source + " (its copy of config.json)");
    require_same_model(source, model_differences(written, config), describe(written), describe(config));
    require_same_preparation(source, preparation_differences(written, config));
  };
  return parse_run_parameters(bytes, source, kDecisionRuns, config.version, ParameterLayout::for_decision(config.model),
                              check_config);
}

void write_decision_run_config(const std::string& dir, const DecisionRunConfig& config) {
  write_file_atomically(run_file(dir, kRunConfigFile), decision_run_config_json(config));
}

void write_decision_checkpoint(const std::string& dir, const DecisionRunConfig& config,
                               const std::vector<float>& params) {
  write_file_atomically(run_file(dir, kRunCheckpointFile), serialize_decision_checkpoint(config, params));
}

void write_decision_run_metrics(const std::string& dir, const DecisionRunMetrics& m) {
  json out = training_history_json(m, [](json& epoch, const EpochRecord& record) {
    if (std::isfinite(record.val_score)) epoch["selection_score"] = record.val_score;
  });
  out["task"] = kDecisionRunTask;
  json_put_measured(out, "validation_mse", m.validation_mse);
  out["selection_episodes"] = m.selection_episodes;
  if (m.evaluation) {
    const DecisionEvaluationSummary& e = *m.evaluation;
    json episodes = json::array();
    for (const EpisodeOutcome& episode : e.episodes) episodes.push_back(episode_json(episode));
    out["evaluation"] = {{"target_return", e.target_return},
                         {"act_mode", std::string(to_string(e.act_mode))},
                         {"episodes", episodes},
                         {"score_mean", e.score_mean},
                         {"score_sd", e.score_sd},
                         {"return_mean", e.return_mean},
                         {"median_step_seconds", e.median_step_seconds},
                         {"state_bytes", e.state_bytes}};
  }
  write_run_metrics_files(dir, out, m.epochs);
}

DecisionRunMetrics parse_decision_run_metrics(std::string_view text, const std::string& source) {
  DecisionRunMetrics m;
  const json root = parse_training_history(text, source, m);
  m.validation_mse = json_number_or(root, "validation_mse", source, 0, kHuge, std::numeric_limits<double>::quiet_NaN());
  m.selection_episodes = json_int_or(root, "selection_episodes", source, 0, 1 << 30, 0);
  for (std::size_t i = 0; i < m.epochs.size(); ++i)
    m.epochs[i].val_score = json_number_or(root.at("epochs").at(i), "selection_score", source, -kHuge, kHuge,
                                           std::numeric_limits<double>::quiet_NaN());
  if (root.contains("evaluation")) {
    const std::string es = source + " (evaluation)";
    const json& e = json_section(root, "evaluation", source);
    DecisionEvaluationSummary s;
    s.target_return = json_number(e, "target_return", es, -kHuge, kHuge);
    s.act_mode = read_act_mode(e, es);
    const auto episodes = e.find("episodes");
    if (episodes == e.end() || !episodes->is_array() || episodes->empty())
      fail(es, "field 'episodes' must be a list of at least one episode");
    for (const json& item : *episodes) {
      if (!item.is_object()) fail(es, "field 'episodes' must hold objects");
      EpisodeOutcome episode;
      const double seed = json_number(item, "seed", es, 0, 1.8e19);
      episode.seed = std::uint64_t(seed);
      episode.total_reward = json_number(item, "return", es, -kHuge, kHuge);
      episode.normalized_score = json_number(item, "normalized_score", es, -kHuge, kHuge);
      episode.steps = json_int(item, "steps", es, 1, 1 << 30);
      episode.terminal = json_bool(item, "terminal", es);
      s.episodes.push_back(episode);
    }
    s.score_mean = json_number(e, "score_mean", es, -kHuge, kHuge);
    s.score_sd = json_number(e, "score_sd", es, 0, kHuge);
    s.return_mean = json_number(e, "return_mean", es, -kHuge, kHuge);
    s.median_step_seconds = json_number(e, "median_step_seconds", es, 0, kHuge);
    s.state_bytes = std::size_t(json_number(e, "state_bytes", es, 0, 1e18));
    m.evaluation = s;
  }
  return m;
}

LoadedDecisionRun load_decision_run(const std::string& dir) {
  return load_run_folder<DecisionRunConfig, DecisionRunMetrics>(dir, parse_decision_run_config,
                                                                parse_decision_checkpoint, parse_decision_run_metrics);
}

}  // namespace aaren::rl
