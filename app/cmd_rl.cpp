// aaren rl: the reinforcement-learning setting's environments from the command line. `replay` steps
// an environment from a given state through given actions, so that anyone can check the dynamics
// against their own.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include "app/commands.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/rl/dataset_summary.hpp"
#include "core/rl/decision_evaluation.hpp"
#include "core/rl/decision_run.hpp"
#include "core/rl/environment.hpp"
#include "core/rl/offline_dataset.hpp"
#include "core/rl/reference_returns.hpp"
#include "core/runs/run_catalog.hpp"

namespace aaren::cli {

namespace {

// One CSV field after its comma, appended in two steps: GCC 12 warns falsely (-Wstringop-overflow)
// about the temporaries of `"," + text` in these loops.
void add_field(std::string& csv, const std::string& text) {
  csv += ',';
  csv += text;
}

const char* const kRlText = R"(reinforcement learning: the environments, written from their published equations

The environments are written from their published equations (docs/DESIGN.md,
"Reinforcement learning"): pendulum, cartpole, cartpole-swingup.)";

const char* const kReplayText = R"(step an environment through given actions

Steps --env from the state --start through the actions of --actions
(headerless, one row per step, one column per action value) and writes every
step as CSV: step,obs_0,...,action_0,...,reward,terminal,timeout. Row 0 holds
the start's observation only; row t the observation after the t-th action, that
action as applied (clipped to the range), its reward and the two flags (1 or 0).
An episode that ends before the actions do stops there, and says so on standard
error.)";

const char* const kGenerateText = R"(write an offline data set

Writes an offline data set of --steps steps in D4RL's layout (observations,
actions, rewards, terminals, timeouts) as safetensors, from episodes of --policy
(docs/DESIGN.md section 11); prints its episodes and their normalized scores.)";

const char* const kEvaluateText = R"(let a trained Decision Transformer act

Loads a run of `aaren train --task rl` (each model of a side-by-side run) and
lets it act for --episodes episodes, episode e starting from the environment's
start drawn with seed --seed + e. The return-to-go starts at --target-return and
falls by each reward. Prints each model's mean return and its normalized score,
100 (R - R_random) / (R_expert - R_random) as D4RL's, as a line "normalized
score: MEAN ± SD" (over the episodes), with the median time per step and the
bytes the actor keeps. --out writes one row per episode, --steps-out one row per
step (the observation acted on, the action applied, its reward, the return-to-go
asked for, the time and the state kept).)";

const char* const kEnvHelp = "pendulum | cartpole | cartpole-swingup";

struct ReplayOptions {
  std::string env, start, actions, out;
};

struct EvaluateOptions {
  std::string run, act, out, steps_out;
  int episodes = 10;
  unsigned seed = 1;
  double target_return = std::numeric_limits<double>::quiet_NaN();
};

struct GenerateOptions {
  std::string env, policy, out;
  long steps = 0;
  unsigned seed = 1;
};

std::vector<double> parse_start(const std::string& text) {
  std::vector<double> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || item.find_first_not_of(" \t", used) != std::string::npos)
      throw UsageError("--start: '" + item + "' is not a number");
    values.push_back(value);
  }
  return values;
}

int replay(const ReplayOptions& o) {
  std::unique_ptr<rl::Environment> environment;
  try {
    environment = rl::make_environment(o.env);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--env: ") + error.what());
  }
  const std::vector<double> start = parse_start(o.start);
  std::vector<double> observation;
  try {
    observation = environment->reset_to(start);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--start: ") + error.what());
  }
  const rl::EnvironmentSpec& spec = environment->spec();
  const Matrix<double> actions = read_matrix_csv(o.actions);
  if (actions.cols != spec.action_dim)
    throw std::runtime_error(o.actions + ": " + spec.name + " takes " + std::to_string(spec.action_dim) +
                             " action value(s) a step, the file has " + std::to_string(actions.cols) + " per row");

  std::string csv = "step";
  for (std::size_t i = 0; i < observation.size(); ++i) csv += ",obs_" + std::to_string(i);
  for (int i = 0; i < spec.action_dim; ++i) csv += ",action_" + std::to_string(i);
  csv += ",reward,terminal,timeout\n0";
  for (const double value : observation) add_field(csv, format_number(value));
  csv += std::string(std::size_t(spec.action_dim) + 3, ',') + "\n";
  int taken = 0;
  for (; taken < actions.rows; ++taken) {
    const std::span<const double> action = actions.row(taken);
    const rl::StepResult step = environment->step(action);
    csv += std::to_string(taken + 1);
    for (const double value : step.observation) add_field(csv, format_number(value));
    for (const double value : action) add_field(csv, format_number(std::clamp(value, spec.action_low, spec.action_high)));
    add_field(csv, format_number(step.reward));
    csv += step.terminal ? ",1" : ",0";
    csv += step.timeout ? ",1\n" : ",0\n";
    if (step.terminal || step.timeout) {
      ++taken;
      if (taken < actions.rows)
        std::cerr << "aaren: the episode ended at step " << taken << " (" << (step.terminal ? "terminal" : "time limit")
                  << "); the remaining " << actions.rows - taken << " action(s) were not applied\n";
      break;
    }
  }
  if (!o.out.empty())
    write_file_atomically(o.out, csv);
  else
    std::cout << csv;
  return 0;
}

int generate(const GenerateOptions& o) {
  const std::string& env = o.env;
  try {
    rl::make_environment(env);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--env: ") + error.what());
  }
  const std::string& policy_name = o.policy;
  const auto policy = rl::dataset_policy_from_string(policy_name);
  if (!policy) throw UsageError("--policy: unknown policy '" + policy_name + "'; choose one of: " + rl::dataset_policy_names());
  const std::string& out = o.out;
  const rl::OfflineDataset dataset = rl::generate_dataset(env, *policy, o.steps, std::uint64_t(o.seed));
  rl::write_dataset(out, dataset);
  const rl::DatasetSummary summary = rl::summarize_dataset(dataset);
  const bool cut = summary.episodes.back().cut;
  if (summary.whole_episodes == 0) {
    std::printf("%s: %ld steps of %s on %s: no whole episode (the only one was cut short by --steps), so no score\n",
                out.c_str(), dataset.steps(), policy_name.c_str(), env.c_str());
    return 0;
  }
  std::printf("%s: %ld steps of %s on %s, %ld whole episode%s%s\n", out.c_str(), dataset.steps(), policy_name.c_str(),
              env.c_str(), summary.whole_episodes, summary.whole_episodes == 1 ? "" : "s",
              cut ? " and the last cut short by --steps (left out below)" : "");
  std::printf("episode returns: mean %.2f, from %.2f to %.2f; normalized score: mean %.1f, from %.1f to %.1f\n",
              summary.return_mean, summary.return_min, summary.return_max, summary.score_mean, summary.score_min,
              summary.score_max);
  return 0;
}

// One row per step: the observation acted on, the action applied, its reward, the return-to-go
// asked for, the actor's time and the state it kept (so that an episode can be replayed).
std::string steps_header(int observation_dim, int action_dim) {
  std::string header = "model,episode,step";
  for (int j = 0; j < observation_dim; ++j) header += ",obs_" + std::to_string(j);
  for (int j = 0; j < action_dim; ++j) header += ",action_" + std::to_string(j);
  return header + ",reward,return_to_go,seconds,state_bytes\n";
}

int evaluate(const EvaluateOptions& o) {
  const std::vector<std::string> folders = run_model_folders(o.run);
  if (folders.empty()) throw std::runtime_error(o.run + ": not a run folder (no config.json, nor a model's run in aaren/, transformer/ or linear/)");
  std::string episodes_csv = "model,episode,seed,return,normalized_score,steps,terminal\n";
  std::string steps_csv;
  for (const std::string& folder : folders) {
    const rl::LoadedDecisionRun run = rl::load_decision_run(folder);
    const int S = run.config.model.state_dim, A = run.config.model.action_dim;
    if (steps_csv.empty()) steps_csv = steps_header(S, A);
    rl::EvaluationSettings settings;
    settings.episodes = o.episodes;
    settings.first_seed = o.seed;
    settings.mode = o.act.empty() ? run.config.act_mode : *rl::act_mode_from_string(o.act);
    settings.target_return =
        rl::chosen_target_return(run.config.data.environment, o.target_return);
    const rl::DecisionEvaluation evaluation = rl::evaluate_decision(run.config.model, run.config.data, run.params, settings);
    const std::string name(to_string(run.config.model.backbone.kind));
    std::size_t largest_state = 0;
    for (std::size_t e = 0; e < evaluation.episodes.size(); ++e) {
      const rl::EpisodeOutcome& episode = evaluation.episodes[e];
      episodes_csv += name + "," + std::to_string(e) + "," + std::to_string(episode.seed) + "," +
                      format_number(episode.total_reward) + "," + format_number(episode.normalized_score) + "," +
                      std::to_string(episode.steps) + (episode.terminal ? ",1\n" : ",0\n");
      for (std::size_t t = 0; t < episode.step_seconds.size(); ++t) {
        steps_csv += name;
        add_field(steps_csv, std::to_string(e));
        add_field(steps_csv, std::to_string(t));
        for (int j = 0; j < S; ++j) add_field(steps_csv, format_number(episode.observations[t * std::size_t(S) + std::size_t(j)]));
        for (int j = 0; j < A; ++j) add_field(steps_csv, format_number(episode.actions[t * std::size_t(A) + std::size_t(j)]));
        add_field(steps_csv, format_number(episode.rewards[t]));
        add_field(steps_csv, format_number(episode.returns_to_go[t]));
        add_field(steps_csv, format_number(episode.step_seconds[t]));
        add_field(steps_csv, std::to_string(episode.state_bytes[t]));
        steps_csv += '\n';
        largest_state = std::max(largest_state, episode.state_bytes[t]);
      }
    }
    std::printf("%s (%s mode, %s, target return %.1f, %zu episodes): mean return %.1f\n", name.c_str(),
                std::string(to_string(settings.mode)).c_str(), run.config.data.environment.c_str(),
                settings.target_return, evaluation.episodes.size(), evaluation.return_mean);
    std::printf("normalized score: %.1f ± %.1f\n", evaluation.score_mean, evaluation.score_sd);
    std::printf("median time per step %.1f us; state kept at most %zu B\n", evaluation.median_step_seconds * 1e6,
                largest_state);
  }
  if (!o.out.empty()) write_file_atomically(o.out, episodes_csv);
  if (!o.steps_out.empty()) write_file_atomically(o.steps_out, steps_csv);
  return 0;
}

}  // namespace

void add_rl_commands(CommandLine& cli) {
  CLI::App* rl = cli.add_command(cli.root(), "rl", kRlText);
  auto r = std::make_shared<ReplayOptions>();
  CLI::App* replay_app = cli.add_command(rl, "replay", kReplayText, [r] { return replay(*r); });
  add_text(replay_app, "--env", r->env, "NAME", kEnvHelp)->required()->group(kOptionsGroup);
  add_text(replay_app, "--start", r->start, "VALUES",
           "the state, comma-separated, in the environment's order: pendulum theta,thetadot; cartpole and "
           "cartpole-swingup x,xdot,theta,thetadot (theta from upright, radians)")
      ->required()->group(kOptionsGroup);
  add_text(replay_app, "--actions", r->actions, "FILE", "the actions, one row per step")->required()->group(kOptionsGroup);
  add_text(replay_app, "--out", r->out, "FILE", "write the steps there instead of standard output")
      ->group(kOptionsGroup);

  auto g = std::make_shared<GenerateOptions>();
  CLI::App* generate_app = cli.add_command(rl, "generate", kGenerateText, [g] { return generate(*g); });
  add_text(generate_app, "--env", g->env, "NAME", kEnvHelp)->required()->group(kOptionsGroup);
  add_text(generate_app, "--policy", g->policy, "POLICY", "the behaviour policy: " + rl::dataset_policy_names())
      ->required()->group(kOptionsGroup);
  add_whole(generate_app, "--steps", g->steps, 1, 100'000'000, "N", "the number of steps (rows)")
      ->required()->group(kOptionsGroup);
  add_whole(generate_app, "--seed", g->seed, 0, std::numeric_limits<int>::max(), "S",
            "the seed of every start and random draw")
      ->group(kOptionsGroup);
  add_text(generate_app, "--out", g->out, "FILE", "the data set's file (written whole or not at all)")
      ->required()->group(kOptionsGroup);

  auto e = std::make_shared<EvaluateOptions>();
  CLI::App* evaluate_app = cli.add_command(rl, "evaluate", kEvaluateText, [e] { return evaluate(*e); });
  add_text(evaluate_app, "--run", e->run, "DIR", "a run of aaren train --task rl")->required()->group(kOptionsGroup);
  add_whole(evaluate_app, "--episodes", e->episodes, 1, 100000, "N", "episodes per model")->group(kOptionsGroup);
  add_whole(evaluate_app, "--seed", e->seed, 0, std::numeric_limits<int>::max(), "S", "the first episode's seed")
      ->group(kOptionsGroup);
  add_real(evaluate_app, "--target-return", e->target_return, {}, "R",
           "the return asked for (default: the environment's expert reference return)")
      ->group(kOptionsGroup);
  add_choice(evaluate_app, "--act", e->act, {"window", "stream"}, "how the model acts (default: as it was trained)")
      ->group(kOptionsGroup);
  add_text(evaluate_app, "--out", e->out, "FILE.csv", "one row per episode")->group(kOptionsGroup);
  add_text(evaluate_app, "--steps-out", e->steps_out, "FILE.csv",
           "one row per step: the observation, action, reward, return-to-go, time and state kept")
      ->group(kOptionsGroup);
}

}  // namespace aaren::cli
