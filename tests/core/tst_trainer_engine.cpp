// The Trainer with a StepEngine: the engine does the steps and the validation losses, the Trainer
// keeps the loop. An engine that does on the CPU exactly what the Trainer's workers do must give the
// same run (losses, best epoch, stop, on_best calls, final weights); an engine whose step stops
// being finite ends the run as diverged with its last finite weights; cancellation still works.
#include <QtTest>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/train/adamw.hpp"
#include "core/forecast/forecast_task.hpp"
#include "core/train/step_engine.hpp"
#include "core/train/trainer.hpp"
#include "core/util/aligned_vector.hpp"

using namespace aaren;

namespace {

// Windows cut from a series held in memory.
class SeriesWindows : public WindowSet {
 public:
  SeriesWindows(const std::vector<float>& series, int seq_len, int horizon, long first, long last)
      : series_(series), t_(seq_len), h_(horizon), first_(first), last_(last) {}
  long size() const override { return last_ - first_ - t_ - h_ + 1; }
  void copy(long i, float* x, float* y) const override {
    const float* start = series_.data() + first_ + i;
    std::copy(start, start + t_, x);
    std::copy(start + t_, start + t_ + h_, y);
  }

 private:
  const std::vector<float>& series_;
  int t_, h_;
  long first_, last_;
};

std::vector<float> noisy_sine(long n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, 0.1f);
  std::vector<float> s(std::size_t(n), 0.0f);
  for (long t = 0; t < n; ++t) s[std::size_t(t)] = float(std::sin(2 * M_PI * double(t) / 24.0)) + noise(rng);
  return s;
}

ModelConfig small(ModelKind kind) {
  ModelConfig c;
  c.kind = kind;
  c.d_model = 16;
  c.heads = 2;
  c.layers = 2;
  c.d_ff = 32;
  c.seq_len = 24;
  c.horizon = 6;
  c.channels = 1;
  return c;
}

std::vector<float> initial_params(const ModelConfig& c) {
  std::vector<float> p;
  std::mt19937 rng(4);
  init_parameters(p, ParameterLayout(c), rng);
  return p;
}

// The Trainer's CPU arithmetic written out as an engine: a batch is cut into the same 8 shards,
// each with its own gradient buffer, summed in shard order, then clipped and stepped with AdamW;
// the validation loss is reduced by shards the same way. So its runs equal the Trainer's own.
class ReferenceEngine : public StepEngine {
 public:
  static constexpr int kShards = 8;

  ReferenceEngine(const ModelConfig& config, const TrainSettings& settings, const WindowSet& train,
                  const WindowSet& validation)
      : layout_(config), settings_(settings), train_(config, train), validation_(config, validation),
        train_worker_(train_.make_worker()), validation_worker_(validation_.make_worker()),
        optimizer_(layout_, settings.adamw), params_(layout_.total(), 0.0f), grads_(layout_.total(), 0.0f),
        shard_grads_(kShards, AlignedVector<float>(layout_.total(), 0.0f)) {}

  std::string device() const override { return "reference"; }
  void set_params(const float* params) override {
    std::copy(params, params + params_.size(), params_.begin());
    optimizer_ = AdamW(layout_, settings_.adamw);
  }
  void get_params(float* params) override { std::copy(params_.begin(), params_.end(), params); }

  StepReport step(const long* examples, int count, double lr) override {
    ++steps;
    double loss = 0;
    for (int shard = 0; shard < kShards; ++shard) {
      AlignedVector<float>& g = shard_grads_[std::size_t(shard)];
      std::fill(g.begin(), g.end(), 0.0f);
      double objective = 0;
      for (long i = long(shard) * count / kShards; i < long(shard + 1) * count / kShards; ++i) {
        const LossTerms example = train_worker_->loss(examples[i], params_.data(), g.data(), 1.0f / float(count));
        objective += example.sum / double(example.terms);
      }
      loss += objective;
    }
    grads_ = shard_grads_[0];
    for (int shard = 1; shard < kShards; ++shard)
      for (std::size_t i = 0; i < grads_.size(); ++i) grads_[i] += shard_grads_[std::size_t(shard)][i];
    StepReport report;
    report.loss = loss / double(count);
    report.grad_norm = std::sqrt(std::inner_product(grads_.begin(), grads_.end(), grads_.begin(), 0.0));
    if (!std::isfinite(report.loss) || !std::isfinite(report.grad_norm)) return report;
    clip_grad_norm(grads_.data(), grads_.size(), settings_.clip_norm);
    optimizer_.step(params_.data(), grads_.data(), lr);
    return report;
  }

  double validation_loss() override {
    const long examples = validation_.size();
    double sum = 0;
    long terms = 0;
    for (int shard = 0; shard < kShards; ++shard) {
      double shard_sum = 0;
      long shard_terms = 0;
      for (long i = long(shard) * examples / kShards; i < long(shard + 1) * examples / kShards; ++i) {
        const LossTerms example = validation_worker_->loss(i, params_.data(), nullptr, 0.0f);
        shard_sum += example.sum;
        shard_terms += example.terms;
      }
      sum += shard_sum;
      terms += shard_terms;
    }
    return sum / double(terms);
  }

  long steps = 0;  // taken so far, finite or not

 private:
  ParameterLayout layout_;
  TrainSettings settings_;
  ForecastTask train_, validation_;
  std::unique_ptr<TaskWorker> train_worker_, validation_worker_;
  AdamW optimizer_;
  // Aligned as the Trainer's buffers are: the model's vectorized passes split their loops by the
  // buffers' alignment, so only equally aligned buffers round alike.
  AlignedVector<float> params_, grads_;
  std::vector<AlignedVector<float>> shard_grads_;
};

// The reference engine, except that step number `failing_step` (1-based) reports a loss that is
// not finite and changes nothing, as a real engine does when its loss overflows.
class FailingEngine : public ReferenceEngine {
 public:
  FailingEngine(const ModelConfig& config, const TrainSettings& settings, const WindowSet& train,
                const WindowSet& validation, long failing_step)
      : ReferenceEngine(config, settings, train, validation), failing_step_(failing_step) {}
  StepReport step(const long* examples, int count, double lr) override {
    if (steps + 1 != failing_step_) return ReferenceEngine::step(examples, count, lr);
    ++steps;
    return {std::numeric_limits<double>::quiet_NaN(), 1.0};
  }

 private:
  long failing_step_;
};

struct Run {
  TrainResult result;
  std::vector<float> params;
  std::vector<int> best_epochs;                 // as on_best heard them
  std::vector<std::vector<float>> best_params;  // likewise
};

TrainCallbacks recording(Run& run) {
  TrainCallbacks callbacks;
  callbacks.on_best = [&run](const std::vector<float>& params, const EpochRecord& record) {
    run.best_epochs.push_back(record.epoch);
    run.best_params.push_back(params);
  };
  return callbacks;
}

struct Fixture {
  ModelConfig config;
  std::vector<float> series = noisy_sine(400, 3);
  SeriesWindows train{series, 24, 6, 0, 300}, validation{series, 24, 6, 300 - 24, 400};
  ForecastTask train_task, validation_task;
  explicit Fixture(ModelKind kind)
      : config(small(kind)), train_task(config, train), validation_task(config, validation) {}

  Run run(const TrainSettings& settings, StepEngine* engine, TrainCallbacks callbacks = {}) {
    Run out;
    out.params = initial_params(config);
    const TrainCallbacks recorder = recording(out);
    callbacks.on_best = recorder.on_best;
    Trainer trainer(ParameterLayout(config), out.params, settings);
    trainer.use_engine(engine);
    out.result = trainer.train(train_task, validation_task, callbacks);
    return out;
  }
};

TrainSettings quick_settings() {
  TrainSettings s;
  s.epochs = 4;
  s.batch = 8;
  s.max_steps_per_epoch = 6;
  s.threads = 2;
  s.patience = 0;
  return s;
}

}  // namespace

class TestTrainerEngine : public QObject {
  Q_OBJECT

 private slots:
  void same_run_as_the_cpu_workers_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("earlyStop");
    QTest::newRow("aaren, all epochs") << int(ModelKind::aaren) << false;
    QTest::newRow("transformer, all epochs") << int(ModelKind::transformer) << false;
    QTest::newRow("aaren, early stopping") << int(ModelKind::aaren) << true;
    QTest::newRow("transformer, early stopping") << int(ModelKind::transformer) << true;
  }
  void same_run_as_the_cpu_workers() {
    QFETCH(int, kind);
    QFETCH(bool, earlyStop);
    Fixture f{ModelKind(kind)};
    TrainSettings s = quick_settings();
    if (earlyStop) {
      // Large and constant: the validation loss soon stops improving.
      s.epochs = 60;
      s.lr = 5e-2;
      s.schedule = LrSchedule::constant;
      s.patience = 1;
    }
    const Run cpu = f.run(s, nullptr);
    QCOMPARE(cpu.result.stop, earlyStop ? TrainStop::early_stopped : TrainStop::completed);
    ReferenceEngine engine(f.config, s, f.train, f.validation);
    const Run on_engine = f.run(s, &engine);

    QCOMPARE(on_engine.result.stop, cpu.result.stop);
    QCOMPARE(on_engine.result.message, cpu.result.message);
    QCOMPARE(on_engine.result.best_epoch, cpu.result.best_epoch);
    QCOMPARE(on_engine.result.best_val_loss, cpu.result.best_val_loss);
    QCOMPARE(on_engine.result.samples, cpu.result.samples);
    QCOMPARE(on_engine.result.epochs.size(), cpu.result.epochs.size());
    for (std::size_t e = 0; e < cpu.result.epochs.size(); ++e) {
      QCOMPARE(on_engine.result.epochs[e].train_loss, cpu.result.epochs[e].train_loss);
      QCOMPARE(on_engine.result.epochs[e].val_loss, cpu.result.epochs[e].val_loss);
    }
    QCOMPARE(engine.steps, long(cpu.result.samples / s.batch));
    QCOMPARE(on_engine.best_epochs, cpu.best_epochs);
    QCOMPARE(on_engine.best_params, cpu.best_params);
    QVERIFY(on_engine.params == cpu.params);
    // The final weights are the best epoch's, not the engine's last ones.
    QCOMPARE(on_engine.params, on_engine.best_params.back());
  }

  void non_finite_step_stops_with_the_engines_last_finite_weights() {
    Fixture f(ModelKind::aaren);
    const TrainSettings s = quick_settings();
    FailingEngine engine(f.config, s, f.train, f.validation, 4);  // within the first epoch
    const Run run = f.run(s, &engine);
    QCOMPARE(run.result.stop, TrainStop::diverged);
    QVERIFY2(run.result.message.find("not finite at epoch 1, step 4") != std::string::npos,
             run.result.message.c_str());
    QCOMPARE(run.result.best_epoch, 0);
    QCOMPARE(run.result.samples, 3L * s.batch);
    QCOMPARE(engine.steps, 4L);
    std::vector<float> engine_params(run.params.size());
    engine.get_params(engine_params.data());
    QCOMPARE(run.params, engine_params);
    QVERIFY(run.params != initial_params(f.config));  // three steps were taken
  }

  void non_finite_step_after_an_epoch_keeps_the_best_weights() {
    Fixture f(ModelKind::transformer);
    const TrainSettings s = quick_settings();
    FailingEngine engine(f.config, s, f.train, f.validation, s.max_steps_per_epoch + 2);  // epoch 2, step 2
    const Run run = f.run(s, &engine);
    QCOMPARE(run.result.stop, TrainStop::diverged);
    QVERIFY2(run.result.message.find("epoch 2, step 2") != std::string::npos, run.result.message.c_str());
    QCOMPARE(run.result.best_epoch, 1);
    QCOMPARE(run.best_epochs, std::vector<int>{1});
    QCOMPARE(run.params, run.best_params.front());
    std::vector<float> engine_params(run.params.size());
    engine.get_params(engine_params.data());
    QVERIFY(run.params != engine_params);  // the engine stepped on after epoch 1
  }

  void cancel_stops_with_the_best_weights() {
    Fixture f(ModelKind::aaren);
    TrainSettings s = quick_settings();
    s.epochs = 1000;
    ReferenceEngine engine(f.config, s, f.train, f.validation);
    std::atomic<bool> cancel{false};
    TrainCallbacks callbacks;
    callbacks.cancel = &cancel;
    callbacks.progress = [&](const TrainProgress& p) {
      if (p.epoch == 3 && p.step == 2) cancel.store(true);
    };
    const Run run = f.run(s, &engine, callbacks);
    QCOMPARE(run.result.stop, TrainStop::cancelled);
    QVERIFY2(run.result.message.find("epoch 3, step 3") != std::string::npos, run.result.message.c_str());
    QCOMPARE(run.result.epochs.size(), std::size_t(2));
    QCOMPARE(engine.steps, 2 * s.max_steps_per_epoch + 2);
    QVERIFY(run.result.best_epoch >= 1);
    QCOMPARE(run.params, run.best_params.back());
  }
};

QTEST_GUILESS_MAIN(TestTrainerEngine)
#include "tst_trainer_engine.moc"
