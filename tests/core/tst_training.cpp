// Training: both models learn, runs are reproducible, and a run can be cancelled, survives a
// non-finite loss, allocates nothing per step, and round-trips through its run folder; the same
// loop trains any TrainingTask, here also a least-squares problem with a known optimum.
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "core/data/time_series_csv.hpp"
#include "core/io/text_file.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/forecast/forecast_task.hpp"
#include "core/forecast/forecast_windows.hpp"
#include "core/train/trainer.hpp"

// Counts heap allocations, to check that training steps make none.
static std::atomic<long> g_allocations{0};
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// The nothrow forms too (std::stable_sort's buffer), or AddressSanitizer, which serves them from its
// own heap instead of through the operator new above, sees its blocks freed by std::free.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace aaren;

namespace {

// Windows cut from a series held in memory: the test's own data.
class SeriesWindows : public WindowSet {
 public:
  SeriesWindows(std::vector<float> series, int channels, int seq_len, int horizon, long first, long last)
      : series_(std::move(series)), c_(channels), t_(seq_len), h_(horizon), first_(first), last_(last) {}
  long size() const override { return last_ - first_ - t_ - h_ + 1; }
  void copy(long i, float* x, float* y) const override {
    const float* start = series_.data() + std::size_t(first_ + i) * std::size_t(c_);
    std::copy(start, start + std::size_t(t_ * c_), x);
    std::copy(start + std::size_t(t_ * c_), start + std::size_t((t_ + h_) * c_), y);
  }
  // MSE of repeating the last observed value over the horizon: the naive baseline.
  double last_value_mse() const {
    std::vector<float> x(std::size_t(t_ * c_)), y(std::size_t(h_ * c_));
    double total = 0;
    for (long i = 0; i < size(); ++i) {
      copy(i, x.data(), y.data());
      for (int h = 0; h < h_; ++h)
        for (int c = 0; c < c_; ++c) {
          const double d = double(y[std::size_t(h * c_ + c)]) - double(x[std::size_t((t_ - 1) * c_ + c)]);
          total += d * d;
        }
    }
    return total / double(size() * h_ * c_);
  }

 private:
  std::vector<float> series_;
  int c_, t_, h_;
  long first_, last_;
};

std::vector<float> noisy_sine_mixture(long n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, 0.1f);
  std::vector<float> s(static_cast<std::size_t>(n));
  for (long t = 0; t < n; ++t)
    s[std::size_t(t)] = float(std::sin(2 * M_PI * double(t) / 24.0) + 0.5 * std::sin(2 * M_PI * double(t) / 7.0)) +
                        noise(rng);
  return s;
}

ModelConfig small(ModelKind kind, int seq_len, int horizon) {
  ModelConfig c;
  c.kind = kind;
  c.d_model = 32;
  c.heads = 4;
  c.layers = 2;
  c.d_ff = 64;
  c.seq_len = seq_len;
  c.horizon = horizon;
  c.channels = 1;
  return c;
}

std::vector<float> initial_params(const ModelConfig& c, unsigned seed) {
  std::vector<float> p;
  std::mt19937 rng(seed);
  init_parameters(p, ParameterLayout(c), rng);
  return p;
}

// Least squares on a plain parameter vector: example i pulls its first reach_i parameters (at least
// half of them) towards its own targets, with objective (1/reach_i) sum_{k<reach_i} (p_k - t_ik)^2,
// so examples have different numbers of terms. The training optimum is known in closed form: p_k is
// the mean of the t_ik weighted by [k < reach_i] / reach_i.
class PullTowardsTargets : public TrainingTask {
 public:
  PullTowardsTargets(std::size_t parameters, long examples, double centre, double spread, unsigned seed)
      : parameters_(parameters) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, spread);
    std::uniform_int_distribution<int> reach(int(parameters + 1) / 2, int(parameters));
    for (long i = 0; i < examples; ++i) {
      reach_.push_back(i == 0 ? int(parameters) : reach(rng));  // the first example reaches every parameter
      for (std::size_t k = 0; k < parameters; ++k) targets_.push_back(centre + noise(rng));
    }
  }
  // One example that reaches every parameter: its loss is the mean squared distance to `targets`.
  explicit PullTowardsTargets(const std::vector<double>& targets)
      : parameters_(targets.size()), reach_{int(targets.size())}, targets_(targets) {}

  long size() const override { return long(reach_.size()); }
  std::size_t parameter_count() const override { return parameters_; }
  std::unique_ptr<TaskWorker> make_worker() const override { return std::make_unique<Worker>(*this); }
  std::vector<std::string> metric_names() const override { return {"squared_error", "terms"}; }

  std::vector<double> optimum() const {
    std::vector<double> weighted(parameters_, 0.0), weights(parameters_, 0.0);
    for (long i = 0; i < size(); ++i)
      for (int k = 0; k < reach_[std::size_t(i)]; ++k) {
        weighted[std::size_t(k)] += target(i, k) / reach_[std::size_t(i)];
        weights[std::size_t(k)] += 1.0 / reach_[std::size_t(i)];
      }
    for (std::size_t k = 0; k < parameters_; ++k) weighted[k] /= weights[k];
    return weighted;
  }

 private:
  class Worker : public TaskWorker {
   public:
    explicit Worker(const PullTowardsTargets& task) : task_(task) {}
    LossTerms loss(long i, const float* params, float* grads, float grad_weight) override {
      const int reach = task_.reach_[std::size_t(i)];
      double sum = 0;
      for (int k = 0; k < reach; ++k) {
        const double diff = double(params[k]) - task_.target(i, k);
        sum += diff * diff;
        if (grads) grads[k] += float(double(grad_weight) * 2.0 * diff / reach);
      }
      return {sum, reach};
    }
    void add_metrics(long i, const float* params, double* sums) override {
      const LossTerms terms = loss(i, params, nullptr, 0.0f);
      sums[0] += terms.sum;
      sums[1] += double(terms.terms);
    }

   private:
    const PullTowardsTargets& task_;
  };

  double target(long i, int k) const { return targets_[std::size_t(i) * parameters_ + std::size_t(k)]; }

  std::size_t parameters_;
  std::vector<int> reach_;
  std::vector<double> targets_;  // (examples, parameters)
};

// The trainer needs a layout only for AdamW's decay mask; with weight decay off, a tiny forecasting
// model's layout serves as a plain vector of its length.
ParameterLayout plain_vector_layout() {
  ModelConfig c;
  c.kind = ModelKind::transformer;
  c.d_model = c.heads = c.layers = c.d_ff = c.seq_len = c.horizon = c.channels = 1;
  return ParameterLayout(c);
}

TrainSettings least_squares_settings(int threads) {
  TrainSettings s;
  s.adamw.weight_decay = 0;
  s.batch = 16;
  s.lr = 0.05;
  s.threads = threads;
  return s;
}

}  // namespace

class TestTraining : public QObject {
  Q_OBJECT
 private slots:
  void kinds_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("aaren") << int(ModelKind::aaren);
    QTest::newRow("transformer") << int(ModelKind::transformer);
    QTest::newRow("linear") << int(ModelKind::linear);
  }

  void learns_a_noisy_sine_mixture_data() { kinds_data(); }
  void learns_a_noisy_sine_mixture() {
    QFETCH(int, kind);
    const ModelConfig c = small(ModelKind(kind), 48, 12);
    const auto series = noisy_sine_mixture(1400, 5);
    const SeriesWindows train(series, 1, 48, 12, 0, 1000), val(series, 1, 48, 12, 1000 - 48, 1400);
    std::vector<float> params = initial_params(c, 1);
    TrainSettings s;
    s.epochs = 6;
    s.batch = 16;
    s.lr = 3e-3;
    Trainer trainer(ParameterLayout(c), params, s);
    const ForecastTask train_task(c, train), val_task(c, val);
    const TrainResult result = trainer.train(train_task, val_task);
    const double naive = val.last_value_mse();
    const double mse = forecast_metrics(trainer, val_task).mse;
    QVERIFY2(mse < 0.25 * naive, qPrintable(QString("validation MSE %1 vs last-value %2").arg(mse).arg(naive)));
    QVERIFY(result.best_epoch >= 1);
  }

  void learns_a_real_series_data() { kinds_data(); }
  void learns_a_real_series() {
    // Monthly air temperatures at Nottingham: seasonal, so repeating the last value is poor.
    QFETCH(int, kind);
    const std::string path = std::string(AAREN_SOURCE_DIR) + "/datasets/R_nottem.csv";
    ForecastDataOptions options;
    options.seq_len = 36;
    options.horizon = 12;
    const ForecastData data = prepare_forecast_data(read_time_series_csv(path), options);
    const ModelConfig c = small(ModelKind(kind), 36, 12);
    std::vector<float> params = initial_params(c, 2);
    TrainSettings s;
    s.epochs = 30;
    s.batch = 16;
    s.lr = 2e-3;
    s.patience = 8;
    Trainer trainer(ParameterLayout(c), params, s);
    const ForecastWindows train(data.scaled, data.train), val(data.scaled, data.validation);
    const ForecastTask train_task(c, train), val_task(c, val);
    trainer.train(train_task, val_task);
    double naive = 0;
    std::vector<float> x(36), y(12);
    for (long i = 0; i < val.size(); ++i) {
      val.copy(i, x.data(), y.data());
      for (float v : y) naive += double(v - x.back()) * double(v - x.back());
    }
    naive /= double(val.size() * 12);
    const double mse = forecast_metrics(trainer, val_task).mse;
    QVERIFY2(mse < 0.5 * naive, qPrintable(QString("validation MSE %1 vs last-value %2").arg(mse).arg(naive)));
  }

  void same_seed_gives_bitwise_identical_losses_data() { kinds_data(); }
  void same_seed_gives_bitwise_identical_losses() {
    QFETCH(int, kind);
    const ModelConfig c = small(ModelKind(kind), 24, 6);
    const auto series = noisy_sine_mixture(400, 9);
    const SeriesWindows train(series, 1, 24, 6, 0, 300), val(series, 1, 24, 6, 300 - 24, 400);
    std::vector<std::vector<double>> curves;
    for (int threads : {1, 2, 3}) {
      std::vector<float> params = initial_params(c, 4);
      TrainSettings s;
      s.epochs = 3;
      s.batch = 20;
      s.threads = threads;
      Trainer trainer(ParameterLayout(c), params, s);
      std::vector<double> curve;
      TrainCallbacks callbacks;
      callbacks.progress = [&](const TrainProgress& p) { curve.push_back(p.epoch_end ? p.val_loss : p.train_loss); };
      trainer.train(ForecastTask(c, train), ForecastTask(c, val), callbacks);
      curves.push_back(curve);
    }
    QVERIFY(!curves[0].empty());
    for (std::size_t r = 1; r < curves.size(); ++r) {
      QCOMPARE(curves[r].size(), curves[0].size());
      for (std::size_t i = 0; i < curves[0].size(); ++i)
        QVERIFY2(std::memcmp(&curves[r][i], &curves[0][i], sizeof(double)) == 0,
                 qPrintable(QString("run %1 differs at report %2").arg(r).arg(i)));
    }
  }

  void steps_allocate_nothing() {
    const ModelConfig c = small(ModelKind::aaren, 24, 6);
    const auto series = noisy_sine_mixture(600, 3);
    const SeriesWindows train(series, 1, 24, 6, 0, 500), val(series, 1, 24, 6, 500 - 24, 600);
    for (const ModelKind kind : kModelKinds) {
      ModelConfig k = c;
      k.kind = kind;
      std::vector<float> params = initial_params(k, 4);
      TrainSettings s;
      s.epochs = 1;
      s.batch = 8;
      s.threads = 2;
      Trainer trainer(ParameterLayout(k), params, s);
      long at_step_3 = -1, at_last_step = -1;
      TrainCallbacks callbacks;
      callbacks.progress = [&](const TrainProgress& p) {
        if (p.step == 3 && !p.epoch_end) at_step_3 = g_allocations.load();
        if (p.step == p.steps_per_epoch && !p.epoch_end) at_last_step = g_allocations.load();
      };
      trainer.train(ForecastTask(k, train), ForecastTask(k, val), callbacks);
      QVERIFY(at_step_3 >= 0 && at_last_step >= 0);
      QVERIFY2(at_last_step == at_step_3,
               qPrintable(QString("%1 allocations in the step loop").arg(at_last_step - at_step_3)));
    }
  }

  void cancel_from_another_thread_stops_and_keeps_best() {
    const ModelConfig c = small(ModelKind::aaren, 24, 6);
    const auto series = noisy_sine_mixture(800, 2);
    const SeriesWindows train(series, 1, 24, 6, 0, 600), val(series, 1, 24, 6, 600 - 24, 800);
    std::vector<float> params = initial_params(c, 4);
    TrainSettings s;
    s.epochs = 1000;
    s.batch = 8;
    Trainer trainer(ParameterLayout(c), params, s);
    const ForecastTask train_task(c, train), val_task(c, val);
    std::atomic<bool> cancel{false};
    std::atomic<int> epochs_done{0};
    TrainCallbacks callbacks;
    callbacks.cancel = &cancel;
    callbacks.progress = [&](const TrainProgress& p) {
      if (p.epoch_end) epochs_done.store(p.epoch);
    };
    std::thread stopper([&] {
      while (epochs_done.load() < 2) std::this_thread::yield();
      cancel.store(true);
    });
    const TrainResult result = trainer.train(train_task, val_task, callbacks);
    stopper.join();
    QCOMPARE(result.stop, TrainStop::cancelled);
    QVERIFY(result.epochs.size() >= 2 && result.epochs.size() < 1000);
    QVERIFY(result.best_epoch >= 1);
    // The parameters are the best epoch's: evaluating them gives the best validation loss, which
    // is also the validation MSE a run reports.
    QCOMPARE_EQ(trainer.mean_loss(val_task), result.best_val_loss);
    QCOMPARE_EQ(forecast_metrics(trainer, val_task).mse, result.best_val_loss);
  }

  void non_finite_loss_stops_with_last_good_weights() {
    const ModelConfig c = small(ModelKind::transformer, 24, 6);
    auto series = noisy_sine_mixture(400, 2);
    series[150] = std::numeric_limits<float>::quiet_NaN();  // inside some training windows
    const SeriesWindows train(series, 1, 24, 6, 0, 300), val(series, 1, 24, 6, 300 - 24, 400);
    std::vector<float> params = initial_params(c, 4);
    TrainSettings s;
    s.epochs = 3;
    s.batch = 4;
    Trainer trainer(ParameterLayout(c), params, s);
    const TrainResult result = trainer.train(ForecastTask(c, train), ForecastTask(c, val));
    QCOMPARE(result.stop, TrainStop::diverged);
    QVERIFY2(result.message.find("not finite") != std::string::npos, result.message.c_str());
    for (float p : params) QVERIFY(std::isfinite(p));
  }

  void early_stopping_restores_the_best_epoch() {
    const ModelConfig c = small(ModelKind::aaren, 24, 6);
    const auto series = noisy_sine_mixture(500, 8);
    const SeriesWindows train(series, 1, 24, 6, 0, 400), val(series, 1, 24, 6, 400 - 24, 500);
    std::vector<float> params = initial_params(c, 4);
    TrainSettings s;
    s.epochs = 200;
    s.batch = 8;
    s.lr = 2e-2;  // large and constant: the validation loss soon stops improving
    s.schedule = LrSchedule::constant;
    s.patience = 2;
    Trainer trainer(ParameterLayout(c), params, s);
    const ForecastTask val_task(c, val);
    const TrainResult result = trainer.train(ForecastTask(c, train), val_task);
    QCOMPARE(result.stop, TrainStop::early_stopped);
    QCOMPARE(int(result.epochs.size()), result.best_epoch + s.patience);
    QCOMPARE_EQ(trainer.mean_loss(val_task), result.best_val_loss);
  }

  void trains_any_task_to_its_known_optimum() {
    const ParameterLayout layout = plain_vector_layout();
    const std::size_t n = layout.total();
    const PullTowardsTargets train(n, 64, 2.0, 0.5, 11);
    const std::vector<double> optimum = train.optimum();
    const PullTowardsTargets distance_to_optimum(optimum);
    std::vector<std::vector<float>> trained;
    std::vector<std::vector<double>> reports;
    for (int threads : {1, 3}) {
      std::vector<float> params(n, 0.0f);
      TrainSettings s = least_squares_settings(threads);
      s.epochs = 150;
      s.patience = 0;
      Trainer trainer(layout, params, s);
      std::vector<double> report;
      TrainCallbacks callbacks;
      callbacks.progress = [&](const TrainProgress& p) { report.push_back(p.epoch_end ? p.val_loss : p.train_loss); };
      const TrainResult result = trainer.train(train, distance_to_optimum, callbacks);
      QCOMPARE(result.stop, TrainStop::completed);
      for (std::size_t k = 0; k < n; ++k)
        QVERIFY2(std::abs(double(params[k]) - optimum[k]) < 1e-3,
                 qPrintable(QString("parameter %1: %2, optimum %3").arg(k).arg(params[k]).arg(optimum[k])));
      QCOMPARE_EQ(trainer.mean_loss(distance_to_optimum), result.best_val_loss);
      // The set-wide loss and the metric sums are reduced in the same shard order.
      const std::vector<double> sums = trainer.metric_sums(train);
      QCOMPARE(sums.size(), std::size_t(2));
      QCOMPARE_EQ(sums[0] / sums[1], trainer.mean_loss(train));
      report.insert(report.end(), sums.begin(), sums.end());
      trained.push_back(params);
      reports.push_back(report);
    }
    QVERIFY(std::memcmp(trained[0].data(), trained[1].data(), n * sizeof(float)) == 0);
    QCOMPARE(reports[1].size(), reports[0].size());
    QVERIFY(std::memcmp(reports[0].data(), reports[1].data(), reports[0].size() * sizeof(double)) == 0);
  }

  void any_task_stops_early_with_its_best_weights() {
    // Starting at 0 on the way to an optimum near 2, the parameters pass by the validation targets
    // at 1 and then move away from them, so validation stops improving.
    const ParameterLayout layout = plain_vector_layout();
    const std::size_t n = layout.total();
    const PullTowardsTargets train(n, 64, 2.0, 0.1, 12), val(std::vector<double>(n, 1.0));
    std::vector<std::vector<float>> trained;
    for (int threads : {1, 3}) {
      std::vector<float> params(n, 0.0f);
      TrainSettings s = least_squares_settings(threads);
      s.epochs = 200;
      s.patience = 2;
      s.schedule = LrSchedule::constant;
      s.lr = 0.02;
      Trainer trainer(layout, params, s);
      std::vector<float> last_best;
      std::vector<int> best_epochs;
      TrainCallbacks callbacks;
      callbacks.on_best = [&](const std::vector<float>& best, const EpochRecord& record) {
        last_best = best;
        best_epochs.push_back(record.epoch);
      };
      const TrainResult result = trainer.train(train, val, callbacks);
      QCOMPARE(result.stop, TrainStop::early_stopped);
      QCOMPARE(int(result.epochs.size()), result.best_epoch + s.patience);
      QVERIFY(result.best_epoch > 1);
      QCOMPARE(best_epochs.back(), result.best_epoch);
      QVERIFY(std::is_sorted(best_epochs.begin(), best_epochs.end()));
      QVERIFY(result.epochs.back().val_loss > result.best_val_loss);
      // The trainer's parameters are the best epoch's, the ones on_best last saw.
      QCOMPARE(last_best.size(), n);
      QVERIFY(std::memcmp(last_best.data(), params.data(), n * sizeof(float)) == 0);
      QCOMPARE_EQ(trainer.mean_loss(val), result.best_val_loss);
      for (float p : params) QVERIFY2(std::abs(p - 1.0f) < 0.25f, qPrintable(QString("parameter %1").arg(p)));
      trained.push_back(params);
    }
    QVERIFY(std::memcmp(trained[0].data(), trained[1].data(), n * sizeof(float)) == 0);
  }

  // With a validation score, the best epoch is the highest score's, an equal score with a lower
  // loss wins, and patience counts epochs without a better score (while the loss keeps falling).
  void a_validation_score_chooses_the_best_epoch() {
    const ParameterLayout layout = plain_vector_layout();
    const std::size_t n = layout.total();
    const PullTowardsTargets train(n, 32, 1.0, 0.1, 5), val(std::vector<double>(n, 1.0));
    std::vector<float> params(n, 0.0f);
    TrainSettings s = least_squares_settings(1);
    s.epochs = 8;
    s.patience = 3;
    s.schedule = LrSchedule::constant;
    Trainer trainer(layout, params, s);
    // Epoch:         1     2    3    4    5    6    7    8
    const double scores[] = {0.5, 0.7, std::nan(""), 0.7, 0.6, 0.6, 0.6, 0.9};
    int epoch = 0;
    std::vector<float> last_best;
    TrainCallbacks callbacks;
    callbacks.validation_score = [&] { return scores[epoch++]; };
    callbacks.validation_score_name = "validation accuracy";
    callbacks.on_best = [&](const std::vector<float>& best, const EpochRecord&) { last_best = best; };
    const TrainResult result = trainer.train(train, val, callbacks);
    // Epoch 4 ties epoch 2's score with a lower loss (the loss falls every epoch here); 5-7 do not
    // improve, so training stops before epoch 8's better score.
    QCOMPARE(result.stop, TrainStop::early_stopped);
    QCOMPARE(result.best_epoch, 4);
    QCOMPARE(int(result.epochs.size()), 7);
    QCOMPARE(result.best_val_score, 0.7);
    QVERIFY(result.epochs[3].val_loss < result.epochs[1].val_loss);
    QVERIFY(std::isnan(result.epochs[2].val_score));
    QCOMPARE(result.epochs[4].val_score, 0.6);
    QVERIFY2(result.message.find("validation accuracy did not improve for 3 epochs") != std::string::npos,
             result.message.c_str());
    QVERIFY(std::memcmp(last_best.data(), params.data(), n * sizeof(float)) == 0);
  }

  void rejects_tasks_that_do_not_fit() {
    const ParameterLayout layout = plain_vector_layout();
    const std::size_t n = layout.total();
    std::vector<float> params(n, 0.0f);
    Trainer trainer(layout, params, least_squares_settings(1));
    const PullTowardsTargets fits(n, 4, 1.0, 0.1, 1), too_wide(n + 1, 4, 1.0, 0.1, 1), empty(n, 0, 1.0, 0.1, 1);
    QVERIFY_EXCEPTION_THROWN(trainer.train(too_wide, fits), std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(trainer.mean_loss(too_wide), std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(trainer.mean_loss(empty), std::invalid_argument);
    try {
      trainer.train(empty, fits);
      QFAIL("training on an empty set must be rejected");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("training part"), e.what());
    }
    std::vector<float> short_params(n - 1, 0.0f);
    QVERIFY_EXCEPTION_THROWN(Trainer(layout, short_params, TrainSettings()), std::invalid_argument);
  }

  // Features M, S and MS on the same series: each run records its features, trains on what it reads,
  // reports the errors of what it forecasts, scores the naive baselines on the same channels, and
  // forecasts those channels; the target's errors of S and MS baselines are those of M's target.
  void features_runs_forecast_what_they_read() {
    QTemporaryDir dir;
    const auto run_of = [&](ForecastFeatures features) {
      ForecastRunRequest request;
      request.data_path = std::string(AAREN_SOURCE_DIR) + "/datasets/R_Seatbelts.csv";
      request.csv.columns = {"DriversKilled", "front", "rear"};
      request.csv.target = "front";
      request.data.seq_len = 12;
      request.data.horizon = 4;
      request.data.features = features;
      request.model = small(ModelKind::aaren, 12, 4);
      request.model.d_model = 8;
      request.model.heads = 2;
      request.model.layers = 1;
      request.model.d_ff = 16;
      request.train.epochs = 1;
      request.train.threads = 1;
      request.out_dir = (dir.path() + "/" + QString::fromUtf8(to_string(features).data())).toStdString();
      const ForecastRunOutcome outcome = train_forecast_run(request);
      return std::pair{request, outcome};
    };
    const auto [m_request, m] = run_of(ForecastFeatures::M);
    const auto [s_request, s] = run_of(ForecastFeatures::S);
    const auto [ms_request, ms] = run_of(ForecastFeatures::MS);
    QCOMPARE(m.config.model.channels, 3);
    QCOMPARE(m.config.model.target_channel, -1);
    QCOMPARE(s.config.channels, std::vector<std::string>{"front"});
    QCOMPARE(s.config.model.channels, 1);
    QCOMPARE(s.config.model.target_channel, -1);
    QCOMPARE(ms.config.model.channels, 3);
    QCOMPARE(ms.config.model.target_channel, 1);
    QCOMPARE(m.metrics.test.channel_mse.size(), std::size_t(3));
    for (const ForecastRunOutcome* run : {&s, &ms}) {
      QCOMPARE(run->config.forecast_channels(), std::vector<std::string>{"front"});
      QCOMPARE(run->metrics.test.channel_mse.size(), std::size_t(1));
      QVERIFY(std::abs(run->metrics.test.mse - run->metrics.test.channel_mse[0]) <= 1e-12 * run->metrics.test.mse);
      const TestComparison& c = *run->metrics.test_comparison;
      QCOMPARE(c.last_value.scaled.channel_mse.size(), std::size_t(1));
      // The same target, scaled by the same training rows: M's baseline errors of it.
      const TestComparison& all = *m.metrics.test_comparison;
      QVERIFY(std::abs(c.last_value.scaled.mse - all.last_value.scaled.channel_mse[1]) <= 1e-12 * all.last_value.scaled.mse);
      QVERIFY(std::abs(c.last_value.original.mse - all.last_value.original.channel_mse[1]) <=
              1e-9 * all.last_value.original.channel_mse[1]);
    }

    for (const auto& [request, outcome] : {std::pair{m_request, m}, std::pair{s_request, s}, std::pair{ms_request, ms}}) {
      const LoadedForecastRun run = load_forecast_run(request.out_dir);
      QCOMPARE(run.config.features, request.data.features);
      QCOMPARE(run.config.model.target_channel, outcome.config.model.target_channel);
      const ForecastData data = prepare_run_data(run.config, request.data_path);
      QCOMPARE(data.forecast_channel, run.config.model.target_channel);
      // Evaluating the loaded run gives the errors training reported, on the CPU workers and a batch at a time.
      QCOMPARE(evaluate_test_windows(run, data).mse, outcome.metrics.test.mse);
      const BatchForecaster cpu = [&](float* y, const float* x, int batch) {
        const std::size_t x_size = std::size_t(run.config.model.seq_len * run.config.model.channels);
        const std::size_t y_size = std::size_t(run.config.model.horizon * run.config.model.outputs());
        for (int b = 0; b < batch; ++b) forecast_scaled(run, x + std::size_t(b) * x_size, y + std::size_t(b) * y_size);
      };
      QVERIFY(std::abs(evaluate_test_windows(run, data, cpu, 5).mse - outcome.metrics.test.mse) <=
              1e-9 * outcome.metrics.test.mse);
      const WindowForecast f = forecast_test_window(run, data, 2);
      QCOMPARE(f.channels, run.config.forecast_channels());
      const int K = int(f.channels.size());
      QCOMPARE(f.forecast.cols, K);
      QCOMPARE(f.history.cols, K);
      QCOMPARE(f.truth.cols, K);
      // The history and truth are the forecast channels' own values, in the data's units.
      const int column = int(std::find(data.table.channel_names.begin(), data.table.channel_names.end(), f.channels[0]) -
                             data.table.channel_names.begin());
      QCOMPARE(f.history(0, 0), data.table.values(data.test.input_row(2), column));
      QCOMPARE(f.truth(0, 0), data.table.values(data.test.target_row(2), column));
      QCOMPARE(forecast_after_end(run, data).forecast.cols, K);
    }
  }

  void run_folder_round_trip_and_rejections() {
    QTemporaryDir dir;
    ForecastRunRequest request;
    request.data_path = std::string(AAREN_SOURCE_DIR) + "/datasets/R_nottem.csv";
    request.data.seq_len = 24;
    request.data.horizon = 6;
    request.model = small(ModelKind::aaren, 24, 6);
    request.train.epochs = 2;
    request.out_dir = (dir.path() + "/run").toStdString();
    const ForecastRunOutcome outcome = train_forecast_run(request);
    QCOMPARE(outcome.metrics.epochs.size(), std::size_t(2));
    for (const char* f : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
      QVERIFY2(QFile::exists(QString::fromStdString(request.out_dir) + "/" + f), f);

    const LoadedForecastRun run = load_forecast_run(request.out_dir);
    QVERIFY(run.has_metrics);
    QCOMPARE(run.metrics.test.mse, outcome.metrics.test.mse);
    // Loading gives the same model: the same forecast as evaluation reported.
    const ForecastData data = prepare_run_data(run.config, request.data_path);
    const ForecastWindows test(data.scaled, data.test);
    TrainSettings s;
    std::vector<float> params = run.params;
    Trainer again(ParameterLayout(run.config.model), params, s);
    QCOMPARE(forecast_metrics(again, ForecastTask(run.config.model, test)).mse, outcome.metrics.test.mse);

    // Continuing from the saved weights starts where the run ended: its first epoch is no worse
    // than the best epoch it continues from.
    ForecastRunRequest more = request;
    more.out_dir = (dir.path() + "/continued").toStdString();
    more.initial_params = run.params;
    more.train.epochs = 1;
    more.train.lr = 1e-5;
    const ForecastRunOutcome continued = train_forecast_run(more);
    QVERIFY2(continued.metrics.epochs[0].val_loss <= outcome.metrics.validation.mse * 1.05,
             qPrintable(QString("continued %1 vs %2").arg(continued.metrics.epochs[0].val_loss)
                            .arg(outcome.metrics.validation.mse)));
    more.initial_params.pop_back();
    QVERIFY_EXCEPTION_THROWN(train_forecast_run(more), std::invalid_argument);

    // A checkpoint cut short is rejected with the file named.
    const QString model = QString::fromStdString(request.out_dir) + "/model.safetensors";
    QFile file(model);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.resize(file.size() - 10));
    file.close();
    try {
      load_forecast_run(request.out_dir);
      QFAIL("a truncated checkpoint must be rejected");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("model.safetensors"), e.what());
    }
    // A configuration edited to another width no longer matches the checkpoint.
    write_forecast_checkpoint(request.out_dir, run.config, run.params);
    ForecastRunConfig edited = run.config;
    edited.model.d_model = 64;
    write_run_config(request.out_dir, edited);
    try {
      load_forecast_run(request.out_dir);
      QFAIL("a checkpoint of another shape must be rejected");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("shape"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestTraining)
#include "tst_training.moc"
