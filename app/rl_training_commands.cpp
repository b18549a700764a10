// aaren train --task rl: Decision Transformers on an offline data set of `aaren rl generate`.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/train_cli.hpp"
#include "core/io/text_content.hpp"
#include "core/rl/decision_run.hpp"
#include "core/rl/reference_returns.hpp"
#include "core/train/cpu_only_models.hpp"

namespace aaren::cli {

namespace {

const char* const kTrainRlText = R"(Trains a Decision Transformer (Chen et al. 2021) on an offline data set written by
`aaren rl generate`: each step's return-to-go, state and action are three tokens
(docs/DESIGN.md section 11), and the model learns the action from everything
before it. A share of the episodes (--val-fraction) is held out for the
validation loss, the mean squared error of the actions. --act window trains on
segments of --context steps and acts on the last --context steps; --act stream
trains on whole episodes (4 a batch and 20 epochs, unless --batch and --epochs
say otherwise) and acts as an RNN, carrying its state over the whole episode.
After each epoch the model acts for --select-episodes episodes (seeds 1001 on)
and the weights of the epoch that scores highest are kept (with 0, those of the
lowest validation loss). Once trained, the kept weights act for --episodes
seeded episodes (seeds 1 on) aiming at --target-return (the environment's expert
reference return unless given), and their normalized score is reported as
D4RL's: 100 (R - R_random) / (R_expert - R_random). Writes a run folder: DIR/config.json, DIR/model.safetensors,
DIR/metrics.json (per-epoch losses, the episodes' returns and scores, the time
per step and the state kept) and DIR/loss.csv. With --model both, DIR/aaren and
DIR/transformer, trained on the same episodes with the same seed (--model all
adds DIR/linear, the linear Transformer). Decision Transformers train on the CPU.)";

struct TrainRlOptions {
  rl::DecisionRunRequest request;
  std::string out, model = "aaren", act = "window", schedule, device = "cpu";
  const CLI::App* app = nullptr;
};

void print_data_summary(const rl::DecisionRunData& data) {
  const rl::OfflineDataset& d = data.dataset;
  std::printf("read %ld steps of %s on %s: %zu episodes (%zu training, %zu validation), %d state and %d action "
              "value%s a step\n",
              d.steps(), d.policy.c_str(), d.environment.c_str(), data.steps.episodes.size(), data.train.size(),
              data.validation.size(), d.observation_dim, d.action_dim, d.action_dim == 1 ? "" : "s");
  std::fflush(stdout);
}

int train_rl(TrainRlOptions& o) {
  require_cpu_device(o.device, cpu_only_reason(TrainingTaskKind::rl));
  rl::DecisionRunRequest& request = o.request;
  const std::vector<ModelKind> kinds = model_kinds(o.model);
  request.act_mode = *rl::act_mode_from_string(o.act);
  if (request.act_mode == rl::ActMode::stream) {
    // Whole episodes make few batches of 64: a stream's own defaults, unless given.
    const TrainSettings stream = rl::decision_stream_train_settings();
    if (!given(o.app, "--batch")) request.train.batch = stream.batch;
    if (!given(o.app, "--epochs")) request.train.epochs = stream.epochs;
  }
  validate_architecture(request.model.backbone);
  request.train.schedule = schedule_from(o.schedule);

  TerminalTraining training = start_terminal_training();
  std::atomic<bool>& interrupted = training.interrupted;
  const bool terminal = training.terminal;
  const TrainCallbacks& callbacks = training.callbacks;

  bool summary_printed = false;
  const auto outcomes = train_side_by_side(kinds, o.out, interrupted, [&](ModelKind kind, const std::string& dir) {
    const std::string name(to_string(kind));
    request.model.backbone.kind = kind;
    request.out_dir = dir;
    request.on_data_read = [&](const rl::DecisionRunData& data) {
      if (!summary_printed) print_data_summary(data);
      summary_printed = true;
    };
    request.on_memory_checked = [&](const TrainingMemoryCheck& memory) {
      std::printf("training %s Decision Transformer -> %s, needing %s\n", name.c_str(), request.out_dir.c_str(),
                  describe(memory).c_str());
      std::fflush(stdout);
    };
    rl::DecisionRunOutcome outcome = rl::train_decision_run(request, callbacks);
    std::printf("%s%s\n", terminal ? "\r\033[K" : "", outcome.metrics.message.c_str());
    return outcome;
  });

  std::printf("  %-26s", "");
  for (std::size_t i = 0; i < outcomes.size(); ++i) std::printf("%16s", std::string(to_string(kinds[i])).c_str());
  std::printf("\n");
  const auto row = [&](const char* label, auto cell) {
    std::printf("  %-26s", label);
    for (const rl::DecisionRunOutcome& outcome : outcomes) {
      const std::string text = cell(outcome.metrics);
      // Right-aligned by characters, not bytes: "±" takes two bytes.
      std::printf("%*s%s", std::max(0, 16 - int(utf8_characters(text))), "", text.c_str());
    }
    std::printf("\n");
  };
  const auto fixed = [](double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return std::string(text);
  };
  row("validation action MSE", [](const rl::DecisionRunMetrics& m) { return table_cell(m.validation_mse); });
  if (std::all_of(outcomes.begin(), outcomes.end(), [](const auto& x) { return x.metrics.evaluation.has_value(); })) {
    const rl::DecisionEvaluationSummary& first = *outcomes.front().metrics.evaluation;
    std::printf("acting for %zu episodes (%s mode), target return %.1f:\n", first.episodes.size(),
                std::string(to_string(first.act_mode)).c_str(), first.target_return);
    row("mean return", [&](const rl::DecisionRunMetrics& m) { return fixed(m.evaluation->return_mean, 1); });
    row("normalized score", [&](const rl::DecisionRunMetrics& m) {
      return fixed(m.evaluation->score_mean, 1) + " ± " + fixed(m.evaluation->score_sd, 1);
    });
    row("median time per step", [&](const rl::DecisionRunMetrics& m) {
      return fixed(m.evaluation->median_step_seconds * 1e6, 1) + " us";
    });
    row("state kept", [&](const rl::DecisionRunMetrics& m) { return std::to_string(m.evaluation->state_bytes) + " B"; });
  }
  print_run_folders(o.out, kinds, outcomes.size());
  return exit_code_of(outcomes);
}

// `forecast --task rl` says where acting lives instead of "unknown command".
void add_rl_forecast_command(CommandLine& cli) {
  auto run = std::make_shared<std::string>("DIR");
  CLI::App* app = cli.add_command(
      cli.root(), "forecast",
      forecast_description("A Decision Transformer acts rather than forecasts: aaren rl evaluate --run DIR lets a "
                           "reinforcement-learning run act in its environment."),
      [run]() -> int {
        throw UsageError("a reinforcement-learning run acts rather than forecasts: use aaren rl evaluate --run " + *run);
      });
  add_task_option(app, cli.task());
  add_text(app, "--run", *run, "DIR", "the run folder")->group(kDataGroup);
}

void add_rl_train_command(CommandLine& cli) {
  auto o = std::make_shared<TrainRlOptions>();
  CLI::App* app = cli.add_command(cli.root(), "train", train_description(kTrainRlText), [o] { return train_rl(*o); });
  o->app = app;
  rl::DecisionRunRequest& r = o->request;
  add_task_option(app, cli.task());
  add_text(app, "--data", r.data_path, "FILE", "an offline data set (aaren rl generate)")->required()->group(kDataGroup);
  add_text(app, "--out", o->out, "DIR", "the run folder")->required()->group(kDataGroup);
  add_real(app, "--val-fraction", r.val_fraction, {0, false, 0.9, true}, "F", "of the episodes, held out")
      ->group(kDataGroup);
  add_model_choice(app, o->model, true);
  const char* const by_context = "does not apply to a Decision Transformer: --context sets the steps it reads";
  refuse_option(app, "--seq-len", by_context);
  refuse_option(app, "--horizon", by_context);
  r.model = rl::decision_default_model();
  add_architecture_options(app, r.model.backbone, {.seq_len = false, .horizon = false});
  add_whole(app, "--context", r.model.context, 1, rl::kMostDecisionContext, "K", "the steps a window holds (window mode)")
      ->group(kModelGroup);
  add_choice(app, "--act", o->act, {"window", "stream"},
             "re-run the last K steps at every step, or carry the state over the whole episode")
      ->group(kModelGroup);
  add_whole(app, "--episodes", r.evaluation_episodes, 1, 100000, "N", "episodes to act for once trained")
      ->group(kDataGroup);
  add_whole(app, "--select-episodes", r.selection_episodes, 0, 100000, "N",
            "episodes each epoch acts for to select the weights kept (0: by the validation loss)")
      ->group(kDataGroup);
  add_real(app, "--target-return", r.target_return, {}, "R", "the return the agent is asked for (default: the expert's)")
      ->group(kDataGroup);
  r.train = rl::decision_train_settings();
  add_training_options(app, r.train, o->schedule);
  add_device_option(app, o->device, "cpu or auto (Decision Transformers train on the CPU)");
}

}  // namespace

void add_rl_task_commands(CommandLine& cli) {
  add_rl_train_command(cli);
  add_rl_forecast_command(cli);
}

}  // namespace aaren::cli
