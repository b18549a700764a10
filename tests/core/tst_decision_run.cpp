// The Decision Transformer's data, run folder and training (core/rl/decision_data.hpp,
// decision_task.hpp, decision_run_folder.hpp, decision_run.hpp, decision_evaluation.hpp): episodes,
// returns-to-go, standardized states and scaled actions against a data set worked by hand; the
// segments of both act modes; the split of episodes; config.json, the checkpoint and metrics.json
// round trips, and a checkpoint of another run refused; a small training run scores far above the
// random policy, reproduces itself from its seed, keeps the weights that act best on the selection's
// seeds, and a stream's state stays the same size over
// a whole episode while a window's stops growing at K steps; the catalog lists and opens the run.
#include <QtTest>

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/io/text_file.hpp"
#include "core/rl/decision_run.hpp"
#include "core/rl/decision_task.hpp"
#include "core/rl/environment.hpp"
#include "core/rl/reference_returns.hpp"
#include "core/runs/run_catalog.hpp"
#include "support/error_message.hpp"

using namespace aaren;
using namespace aaren::rl;

namespace {

// Two pendulum episodes of 3 and 2 steps, the second cut by a timeout.
OfflineDataset handmade() {
  OfflineDataset d;
  d.environment = "pendulum";
  d.policy = "expert";
  d.observation_dim = 3;
  d.action_dim = 1;
  d.observations = {1, 0, 0.5, 0, 1, -0.5, -1, 0, 1.5, 0.5, 0.5, 0, 1, 1, -1};
  d.actions = {2, -1, 4, 0.5, -3};
  d.rewards = {-1, -2, -3, -4, -5};
  d.terminals = {0, 0, 1, 0, 0};
  d.timeouts = {0, 0, 0, 0, 1};
  return d;
}

DecisionRunRequest small_request(const std::string& data, const std::string& out, ModelKind kind) {
  DecisionRunRequest r;
  r.data_path = data;
  r.out_dir = out;
  r.model = decision_default_model();
  r.model.backbone.kind = kind;
  r.model.backbone.d_model = 32;
  r.model.backbone.d_ff = 64;
  r.model.context = 10;
  r.train = decision_train_settings();
  r.train.epochs = 2;
  r.train.max_steps_per_epoch = 60;
  r.train.threads = 2;
  r.evaluation_episodes = 3;
  return r;
}

}  // namespace

class TestDecisionRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  std::string path(const char* name) const { return dir_.filePath(QString::fromUtf8(name)).toStdString(); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    write_dataset(path("cartpole-me.safetensors"), generate_dataset("cartpole", DatasetPolicy::medium_expert, 12000, 3));
  }

  void stepsAreTheDataSetPreparedByHand() {
    const OfflineDataset d = handmade();
    const std::vector<EpisodeRows> episodes = dataset_episodes(d);
    QCOMPARE(episodes.size(), std::size_t(2));
    QCOMPARE(episodes[0].begin, 0L);
    QCOMPARE(episodes[0].length, 3);
    QCOMPARE(episodes[1].begin, 3L);
    QCOMPARE(episodes[1].length, 2);
    const DecisionDataPreparation p = fit_decision_preparation(d, {episodes[0]});
    // The first episode's states: means (0, 1/3, 0.5), biased deviations sqrt(2/3), sqrt(2/9), sqrt(2/3).
    QVERIFY(std::abs(p.state_mean[1] - 1.0 / 3) < 1e-12);
    QVERIFY(std::abs(p.state_std[0] - std::sqrt(2.0 / 3)) < 1e-12);
    QVERIFY(std::abs(p.state_std[1] - std::sqrt(2.0 / 9)) < 1e-12);
    QCOMPARE(p.action_scale, 2.0);
    QCOMPARE(p.return_scale, std::abs(reference_returns("pendulum").random));
    const DecisionSteps s = prepare_decision_steps(d, p);
    // Returns-to-go within each episode: -6, -5, -3 and -9, -5, over the scale.
    const double expected[] = {-6, -5, -3, -9, -5};
    for (int i = 0; i < 5; ++i) QVERIFY(std::abs(s.returns_to_go[std::size_t(i)] - expected[i] / p.return_scale) < 1e-7);
    QCOMPARE(s.timesteps, (std::vector<int>{0, 1, 2, 0, 1}));
    // Actions over the bound of 2, clipped to [-1, 1].
    QCOMPARE(s.actions, (std::vector<float>{1.0f, -0.5f, 1.0f, 0.25f, -1.0f}));
    QVERIFY(std::abs(s.states[3] - float((0 - 0) / std::sqrt(2.0 / 3))) < 1e-6f);
    QVERIFY(std::abs(s.states[4] - float((1 - 1.0 / 3) / std::sqrt(2.0 / 9))) < 1e-6f);
  }

  void segmentsOfBothModes() {
    const OfflineDataset d = handmade();
    const DecisionSteps s = prepare_decision_steps(d, fit_decision_preparation(d, dataset_episodes(d)));
    // Window K = 2: one segment ending at every step, from the episode's start where it is nearer.
    const std::vector<Segment> window = decision_segments(s, {0, 1}, ActMode::window, 2);
    QCOMPARE(window.size(), std::size_t(5));
    const long begins[] = {0, 0, 1, 3, 3};
    const int lengths[] = {1, 2, 2, 1, 2};
    for (std::size_t i = 0; i < window.size(); ++i) {
      QCOMPARE(window[i].begin, begins[i]);
      QCOMPARE(window[i].length, lengths[i]);
    }
    const std::vector<Segment> stream = decision_segments(s, {0, 1}, ActMode::stream, 3);
    QCOMPARE(stream.size(), std::size_t(2));
    QCOMPARE(stream[0].length, 3);
    QCOMPARE(error_of<std::invalid_argument>([&] { decision_segments(s, {0}, ActMode::stream, 2); }),
             QStringLiteral("an episode of 3 steps is longer than the context of 2 steps a streaming model is trained with"));
  }

  void episodesSplitBySeed() {
    DecisionRunData data;
    data.steps.episodes.resize(20);
    split_episodes(data, 0.1, 4, "file");
    QCOMPARE(data.validation.size(), std::size_t(2));
    QCOMPARE(data.train.size(), std::size_t(18));
    DecisionRunData again;
    again.steps.episodes.resize(20);
    split_episodes(again, 0.1, 4, "file");
    QCOMPARE(again.validation, data.validation);
    DecisionRunData one;
    one.steps.episodes.resize(1);
    QCOMPARE(error_of([&] { split_episodes(one, 0.1, 4, "one.safetensors"); }),
             QStringLiteral("one.safetensors: holds 1 episode; training needs at least two (one is held out for "
                            "validation)"));
  }

  void trainsScoresAndRoundTrips() {
    const std::string out = path("run");
    DecisionRunRequest request = small_request(path("cartpole-me.safetensors"), out, ModelKind::aaren);
    const DecisionRunOutcome outcome = train_decision_run(request);
    QVERIFY(outcome.metrics.evaluation.has_value());
    const DecisionEvaluationSummary& e = *outcome.metrics.evaluation;
    QCOMPARE(e.episodes.size(), std::size_t(3));
    QCOMPARE(e.target_return, reference_returns("cartpole").expert);
    // The random policy scores 0 and the expert 100.
    QVERIFY2(e.score_mean > 50, qPrintable(QString("score %1").arg(e.score_mean)));
    double mean = 0;
    for (const EpisodeOutcome& episode : e.episodes) mean += normalized_score("cartpole", episode.total_reward) / 3;
    QVERIFY(std::abs(mean - e.score_mean) < 1e-9);

    const LoadedDecisionRun run = load_decision_run(out);
    QCOMPARE(run.config.model.context, 10);
    QCOMPARE(run.config.model.max_timestep, 500);
    QCOMPARE(run.config.data.environment, std::string("cartpole"));
    QCOMPARE(run.config.data.state_mean, outcome.config.data.state_mean);
    QVERIFY(run.has_metrics);
    QCOMPARE(run.metrics.evaluation->score_mean, e.score_mean);
    QCOMPARE(run.metrics.evaluation->episodes[1].steps, e.episodes[1].steps);
    QCOMPARE(run.metrics.validation_mse, outcome.metrics.validation_mse);
    QCOMPARE(parse_decision_run_config(decision_run_config_json(run.config), "again").model.return_scale,
             run.config.model.return_scale);

    // The catalog lists it as a run of task rl and opens it as one.
    const RunEntry entry = read_run_entry(out);
    QCOMPARE(entry.models.size(), std::size_t(1));
    QVERIFY(entry.models.front().decision() != nullptr);
    QCOMPARE(entry.models.front().task().name, kDecisionRuns.name);
    QCOMPARE(entry.models.front().kind(), ModelKind::aaren);
    QCOMPARE(entry.models.front().decision()->metrics->evaluation->score_mean, e.score_mean);
    QVERIFY(std::holds_alternative<LoadedDecisionRun>(open_run(out)));

    // The same seed, the same weights and scores.
    request.out_dir = path("again");
    const DecisionRunOutcome again = train_decision_run(request);
    QCOMPARE(load_decision_run(path("again")).params, run.params);
    QCOMPARE(again.metrics.evaluation->score_mean, e.score_mean);

    // The checkpoint of one run under another's config.json is refused by name.
    DecisionRunConfig other = run.config;
    other.model.context = 12;
    other.model.backbone.seq_len = other.model.tokens(12);
    write_decision_run_config(path("again"), other);
    const QString refused = error_of([&] { load_decision_run(path("again")); });
    QVERIFY2(refused.contains("context differs"), qPrintable(refused));
  }

  // Each epoch's weights act for the selection's episodes, and the kept ones are those of the epoch
  // that scored highest: acting again from the selection's seeds gives that epoch's score exactly.
  // Without selection episodes the lowest validation MSE chooses, as for the other tasks.
  void theKeptWeightsActBestOnTheSelectionSeeds() {
    write_dataset(path("pendulum-me.safetensors"), generate_dataset("pendulum", DatasetPolicy::medium_expert, 4000, 3));
    DecisionRunRequest request =
        small_request(path("pendulum-me.safetensors"), path("selected"), ModelKind::aaren);
    request.train.epochs = 4;
    request.train.max_steps_per_epoch = 15;
    request.selection_episodes = 2;
    const DecisionRunOutcome outcome = train_decision_run(request);
    const std::vector<EpochRecord>& epochs = outcome.metrics.epochs;
    QCOMPARE(epochs.size(), std::size_t(4));
    std::size_t best = 0;
    for (std::size_t i = 0; i < epochs.size(); ++i) {
      QVERIFY(std::isfinite(epochs[i].val_score));
      if (epochs[i].val_score > epochs[best].val_score) best = i;
    }
    QCOMPARE(outcome.metrics.best_epoch, int(best) + 1);
    QCOMPARE(outcome.metrics.validation_mse, epochs[best].val_loss);

    const LoadedDecisionRun run = load_decision_run(path("selected"));
    QCOMPARE(run.metrics.selection_episodes, 2);
    for (std::size_t i = 0; i < epochs.size(); ++i) QCOMPARE(run.metrics.epochs[i].val_score, epochs[i].val_score);
    EvaluationSettings settings;
    settings.episodes = 2;
    settings.first_seed = kSelectionFirstSeed;
    settings.target_return = default_target_return("pendulum");
    QCOMPARE(evaluate_decision(run.config.model, run.config.data, run.params, settings).score_mean,
             epochs[best].val_score);

    request.selection_episodes = 0;
    request.out_dir = path("by-mse");
    const DecisionRunOutcome byMse = train_decision_run(request);
    std::size_t lowest = 0;
    for (std::size_t i = 0; i < byMse.metrics.epochs.size(); ++i) {
      QVERIFY(std::isnan(byMse.metrics.epochs[i].val_score));
      if (byMse.metrics.epochs[i].val_loss < byMse.metrics.epochs[lowest].val_loss) lowest = i;
    }
    QCOMPARE(byMse.metrics.best_epoch, int(lowest) + 1);
    QCOMPARE(load_decision_run(path("by-mse")).metrics.selection_episodes, 0);
  }

  void theStreamKeepsOneSizeAndTheWindowStopsGrowing() {
    DecisionRunRequest request =
        small_request(path("cartpole-me.safetensors"), path("stream"), ModelKind::aaren);
    request.act_mode = ActMode::stream;
    request.train.max_steps_per_epoch = 4;
    request.train.epochs = 1;
    request.train.batch = 4;
    const DecisionRunOutcome outcome = train_decision_run(request);
    QCOMPARE(outcome.config.model.context, 500);  // whole episodes
    const LoadedDecisionRun run = load_decision_run(path("stream"));
    EvaluationSettings settings;
    settings.episodes = 1;
    settings.target_return = 500;
    settings.mode = ActMode::stream;
    const DecisionEvaluation streamed = evaluate_decision(run.config.model, run.config.data, run.params, settings);
    const std::vector<std::size_t>& bytes = streamed.episodes[0].state_bytes;
    QVERIFY(bytes.size() > 20);
    QVERIFY(std::all_of(bytes.begin(), bytes.end(), [&](std::size_t b) { return b == bytes.front(); }));
    QCOMPARE(streamed.episodes[0].step_seconds.size(), bytes.size());

    // The recorded trajectory replays: the environment stepped through the actions from the
    // episode's start meets every observation and reward, and the return-to-go falls by each reward.
    const EpisodeOutcome& episode = streamed.episodes[0];
    const std::size_t steps = std::size_t(episode.steps), S = 4;
    QCOMPARE(episode.observations.size(), steps * S);
    QCOMPARE(episode.actions.size(), steps);
    QCOMPARE(episode.rewards.size(), steps);
    std::unique_ptr<Environment> environment = make_environment("cartpole");
    std::vector<double> observation = environment->reset(episode.seed);
    double total = 0, left = 500;
    for (std::size_t t = 0; t < steps; ++t) {
      for (std::size_t j = 0; j < S; ++j) QCOMPARE(episode.observations[t * S + j], observation[j]);
      QCOMPARE(episode.returns_to_go[t], left);
      const StepResult result = environment->step(std::span<const double>(&episode.actions[t], 1));
      QCOMPARE(episode.rewards[t], result.reward);
      total += result.reward;
      left -= result.reward;
      observation = result.observation;
    }
    QCOMPARE(total, episode.total_reward);

    settings.mode = ActMode::window;
    DecisionConfig windowed = run.config.model;
    windowed.context = 8;
    windowed.backbone.seq_len = windowed.tokens(8);
    const DecisionEvaluation window = evaluate_decision(windowed, run.config.data, run.params, settings);
    const std::vector<std::size_t>& kept = window.episodes[0].state_bytes;
    QVERIFY(kept.size() > 20);
    for (std::size_t t = 1; t < 8; ++t) QVERIFY(kept[t] > kept[t - 1]);
    for (std::size_t t = 8; t < kept.size(); ++t) QCOMPARE(kept[t], kept[7]);
  }

  void badEvaluationsAreRefused() {
    DecisionConfig c = decision_default_model();
    c.state_dim = c.backbone.channels = 4;
    c.backbone.seq_len = c.tokens(c.context);
    DecisionDataPreparation p;
    p.environment = "cartpole";
    p.state_mean.assign(4, 0.0);
    p.state_std.assign(4, 1.0);
    const std::vector<float> params(ParameterLayout::for_decision(c).total(), 0.0f);
    EvaluationSettings settings;
    settings.episodes = 0;
    QCOMPARE(error_of<std::invalid_argument>([&] { evaluate_decision(c, p, params, settings); }),
             QStringLiteral("the evaluation needs at least 1 episode, got 0"));
  }
};

QTEST_GUILESS_MAIN(TestDecisionRun)
#include "tst_decision_run.moc"
