// The run-time estimate of a streaming measurement: sums of linear step costs, the fit of a step
// cost (and its guard against negative times), the whole run's time (quadratic in N for the
// Transformer), the time left as the first pass advances, and a calibration on a tiny model.
#include <QtTest>

#include <stdexcept>
#include <vector>

#include "core/bench/stream_time_estimate.hpp"

namespace aaren {

namespace {

constexpr double kAarenStep = 2e-5;           // seconds, whatever the tokens seen
constexpr double kTransformerFixed = 3e-5;    // seconds
constexpr double kTransformerPerToken = 1e-8; // seconds per cached token

bench::StreamTimeModel knownCosts() {
  bench::StreamTimeModel model;
  model.cost[0] = {kAarenStep, 0};
  model.cost[1] = {kTransformerFixed, kTransformerPerToken};
  return model;
}

// Exactly what the known costs give at each sample point: every step's own time summed.
std::vector<bench::StreamSample> exactFirstPass(long tokens, long every) {
  const bench::StreamTimeModel model = knownCosts();
  std::vector<bench::StreamSample> samples;
  for (long n = every; n <= tokens; n += every) {
    bench::StreamSample s;
    s.tokens = n;
    for (int k = 0; k < 2; ++k) {
      s.latency_seconds[k] = model.cost[k].seconds_of_steps(n, n);
      s.cumulative_seconds[k] = model.cost[k].seconds_of_steps(1, n);
    }
    samples.push_back(s);
  }
  return samples;
}

bench::StreamBenchOptions runOf(long tokens, int repeats) {
  bench::StreamBenchOptions options;
  options.tokens = tokens;
  options.repeats = repeats;
  options.warmup = 0;
  return options;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-15; }

}  // namespace

class TestStreamTimeEstimate : public QObject {
  Q_OBJECT

 private slots:
  void stepsSumToTheirFormula() {
    const bench::StepCost cost{1e-3, 2e-6};
    double loop = 0;
    for (long n = 17; n <= 900; ++n) loop += cost.fixed_seconds + cost.seconds_per_cached_token * double(n);
    QVERIFY(close(cost.seconds_of_steps(17, 900), loop));
    QCOMPARE(cost.seconds_of_steps(5, 4), 0.0);
  }

  void aStepCostIsFittedAndNeverNegative() {
    const std::vector<double> tokens{1, 10, 100, 1000};
    std::vector<double> seconds;
    for (const double n : tokens) seconds.push_back(kTransformerFixed + kTransformerPerToken * n);
    const bench::StepCost line = bench::fit_step_cost(tokens, seconds);
    QVERIFY(close(line.fixed_seconds, kTransformerFixed));
    QVERIFY(close(line.seconds_per_cached_token, kTransformerPerToken));
    // Falling times (noise) give a constant step, not a negative slope.
    const bench::StepCost falling = bench::fit_step_cost(tokens, {4e-5, 3e-5, 2e-5, 1e-5});
    QCOMPARE(falling.seconds_per_cached_token, 0.0);
    QVERIFY(falling.fixed_seconds > 0);
    // A steep line through a negative intercept is pulled through the origin.
    const bench::StepCost steep = bench::fit_step_cost({10, 20, 30}, {0.0, 0.0, 3e-5});
    QVERIFY(steep.fixed_seconds >= 0 && steep.seconds_per_cached_token > 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bench::fit_step_cost({}, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bench::fit_step_cost({1, 2}, {1e-5}));
  }

  void theTransformersPassGrowsQuadratically() {
    const bench::StreamTimeModel model = knownCosts();
    const double small = bench::estimated_run_seconds(runOf(8192, 1), model);
    const double large = bench::estimated_run_seconds(runOf(16384, 1), model);
    const double hand = 16384 * kAarenStep + 16384 * kTransformerFixed + kTransformerPerToken * 16384.0 * 16385.0 / 2;
    QVERIFY(close(large, hand));
    QVERIFY(large > 2.5 * small);  // more than linear: the KV cache's reads grow with N
    QVERIFY(close(bench::estimated_run_seconds(runOf(16384, 3), model), 3 * hand));
    bench::StreamBenchOptions warm = runOf(16384, 1);
    warm.warmup = 256;
    QVERIFY(bench::estimated_run_seconds(warm, model) > large);
  }

  // Out of the CPU's caches a step reads its whole cache at the machine's bandwidth: a calibration's
  // in-cache slope below that bound must not predict a long run shorter than reading it takes.
  void theMemoryBoundRaisesAnInCacheSlope() {
    bench::StreamTimeModel model = knownCosts();
    const double plain = bench::estimated_run_seconds(runOf(16384, 1), model);
    model.bound_seconds_per_cached_token = 3 * kTransformerPerToken;
    const double bound = bench::estimated_run_seconds(runOf(16384, 1), model);
    const double hand = 16384 * kAarenStep + 16384 * kTransformerFixed + 3 * kTransformerPerToken * 16384.0 * 16385.0 / 2;
    QVERIFY(close(bound, hand));
    QVERIFY(bound > plain);
    // A bound below the fitted slope changes nothing, and Aaren's cost never takes it.
    model.bound_seconds_per_cached_token = kTransformerPerToken / 2;
    QVERIFY(close(bench::estimated_run_seconds(runOf(16384, 1), model), plain));
    QCOMPARE(model.effective_cost(0).seconds_per_cached_token, 0.0);
    // The run's own samples refit the slope, but the bound stays.
    model.bound_seconds_per_cached_token = 3 * kTransformerPerToken;
    const std::vector<bench::StreamSample> pass = exactFirstPass(4096, 64);
    const double left = bench::remaining_run_seconds(runOf(4096, 1), model, pass);
    QVERIFY(left < 1e-9);  // the pass is done
    const std::vector<bench::StreamSample> half(pass.begin(), pass.begin() + long(pass.size() / 2));
    QVERIFY(bench::remaining_run_seconds(runOf(4096, 1), model, half) >
            bench::remaining_run_seconds(runOf(4096, 1), knownCosts(), half));
  }

  void theBoundComesFromTheCacheBytesAndTheBandwidth() {
    ModelConfig config;  // the default size; the bound is the Transformer's whatever kind is asked
    config.kind = ModelKind::aaren;
    const double bound = bench::memory_bound_seconds_per_cached_token(config);
    // 2 x layers x d_model floats per token, read at some GB/s: between 0.1 and 1000 GB/s.
    const double bytes = 2.0 * config.layers * config.d_model * sizeof(float);
    QVERIFY2(bound > bytes / 1e12 && bound < bytes / 1e8, qPrintable(QString::number(bound)));
  }

  void theTimeLeftFallsAsThePassAdvances() {
    const long tokens = 4096;
    const std::vector<bench::StreamSample> pass = exactFirstPass(tokens, 64);
    const bench::StreamTimeModel model = knownCosts();
    for (const int repeats : {1, 3}) {
      const bench::StreamBenchOptions options = runOf(tokens, repeats);
      const double total = bench::estimated_run_seconds(options, model);
      QVERIFY(close(bench::remaining_run_seconds(options, model, {}), total));
      double before = total;
      for (std::size_t s = 1; s <= pass.size(); ++s) {
        const std::vector<bench::StreamSample> sofar(pass.begin(), pass.begin() + long(s));
        const double left = bench::remaining_run_seconds(options, model, sofar);
        double done = 0;
        for (const double c : sofar.back().cumulative_seconds) done += c;
        QVERIFY2(close(left, total - done), qPrintable(QStringLiteral("sample %1").arg(s)));
        QVERIFY(left < before);
        before = left;
      }
      // At the end of the first pass, what is left is the other passes.
      QVERIFY(close(before, (repeats - 1) * total / repeats));
    }
  }

  void theRunsOwnSamplesReplaceAWrongCalibration() {
    const long tokens = 4096;
    const std::vector<bench::StreamSample> pass = exactFirstPass(tokens, 64);
    bench::StreamTimeModel wrong;
    wrong.cost[0] = {1.0, 0};
    wrong.cost[1] = {1.0, 0};
    const std::vector<bench::StreamSample> half(pass.begin(), pass.begin() + long(pass.size() / 2));
    QVERIFY(half.size() >= bench::kSamplesToRefit);
    const bench::StreamBenchOptions options = runOf(tokens, 1);
    const double left = bench::remaining_run_seconds(options, wrong, half);
    const double truth = bench::remaining_run_seconds(options, knownCosts(), half);
    QVERIFY(close(left, truth));
  }

  void aCalibrationMeasuresBothModels() {
    bench::StreamBenchOptions options;
    options.tokens = 512;
    options.model.d_model = 16;
    options.model.heads = 2;
    options.model.layers = 1;
    options.model.d_ff = 32;
    const bench::StreamTimeModel model = bench::calibrate_stream_time(options);
    for (const bench::StepCost& cost : model.cost) {
      QVERIFY(cost.fixed_seconds >= 0 && cost.seconds_per_cached_token >= 0);
      QVERIFY(cost.seconds_of_steps(1, 512) > 0);
    }
    QVERIFY(bench::estimated_run_seconds(options, model) > 0);
    // A stop set before it starts ends it without a measurement.
    const std::atomic<bool> stop{true};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, bench::calibrate_stream_time(options, 10.0, &stop));
  }
};

}  // namespace aaren

QTEST_MAIN(aaren::TestStreamTimeEstimate)
#include "tst_stream_time_estimate.moc"
