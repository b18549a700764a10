// Figure 5 measured robustly (core/bench/stream_summary.hpp), on synthetic step times with known
// truth, never on the clock: a step interrupted by another program does not count as the model's
// cost; the cumulative time is the sum of exactly the per-token times shown; a pass slowed by the
// machine's load widens the exponent's range instead of moving the claim; the shape a lecturer may
// state follows from that range (flat steps: a straight line; growing steps: bending upward; runs
// that disagree, or a single run: no claim).
#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

#include "core/bench/stream_summary.hpp"

namespace aaren {

namespace {

using Passes = std::vector<std::vector<float>>;

// Sampled token counts as the benchmark spaces them: here simply every 64th token.
std::vector<long> points(long tokens) {
  std::vector<long> p;
  for (long n = 64; n <= tokens; n += 64) p.push_back(n);
  return p;
}

// `passes` passes of `tokens` steps costing base + slope * t seconds (t 0-based), each multiplied
// by exp(jitter * e), e standard normal; one step in `spike_every` takes `spike` times as long (an
// interruption); `slowdown(p, t)` multiplies step t of pass p (the machine's load).
template <class Slowdown>
Passes synthetic(int passes, long tokens, double base, double slope, double jitter, long spike_every, double spike,
                 Slowdown slowdown, unsigned seed = 3) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<long> pick(0, spike_every - 1);
  Passes out(static_cast<std::size_t>(passes), std::vector<float>(static_cast<std::size_t>(tokens)));
  for (int p = 0; p < passes; ++p)
    for (long t = 0; t < tokens; ++t) {
      double seconds = (base + slope * double(t)) * std::exp(jitter * normal(rng)) * slowdown(p, t);
      if (spike_every > 0 && pick(rng) == 0) seconds *= spike;
      out[std::size_t(p)][std::size_t(t)] = float(seconds);
    }
  return out;
}

const auto kQuiet = [](int, long) { return 1.0; };

struct Summary {
  std::vector<bench::StreamSample> samples;
  std::vector<std::vector<double>> pass_cumulative;
  bench::GrowthFit fit;
};

Summary summarize(const Passes& passes, const std::vector<long>& at) {
  Summary s;
  bench::summarize_model(passes, at, 0, s.samples, s.pass_cumulative);
  s.fit = bench::fit_growth(s.samples, 0, s.pass_cumulative);
  return s;
}

}  // namespace

class TestStreamSummary : public QObject {
  Q_OBJECT

 private slots:
  void typicalStepIsTheMedianOfItsNeighbourhood() {
    std::vector<float> steps(40, 1.0f);
    steps[20] = 500.0f;  // an interruption
    QCOMPARE(bench::typical_step_seconds(steps, 20), 1.0);
    QCOMPARE(bench::typical_step_seconds(steps, 0), 1.0);
    std::vector<float> rising{1, 2, 3};
    QCOMPARE(bench::typical_step_seconds(rising, 2), 2.0);
  }

  // The charts' two times agree: each cumulative time is the sum of the per-token times, and from
  // one sample to the next it grows by the tokens in between times a per-token time shown.
  void cumulativeIsTheSumOfThePerTokenTimes_data() {
    QTest::addColumn<double>("slope");
    QTest::addColumn<long>("spikeEvery");
    QTest::newRow("flat, quiet") << 0.0 << 0L;
    QTest::newRow("flat, interrupted") << 0.0 << 50L;
    QTest::newRow("growing, interrupted") << 2e-9 << 50L;
  }
  void cumulativeIsTheSumOfThePerTokenTimes() {
    QFETCH(double, slope);
    QFETCH(long, spikeEvery);
    const long tokens = 4096;
    const Passes passes = synthetic(3, tokens, 2e-6, slope, 0.1, spikeEvery, 100.0, kQuiet);
    const Summary s = summarize(passes, points(tokens));
    QCOMPARE(s.samples.size(), points(tokens).size());
    double previous = 0;
    long previousTokens = 0;
    double previousLatency = s.samples.front().latency_seconds[0];
    for (const bench::StreamSample& sample : s.samples) {
      const double perToken = (sample.cumulative_seconds[0] - previous) / double(sample.tokens - previousTokens);
      const double low = std::min(previousLatency, sample.latency_seconds[0]),
                   high = std::max(previousLatency, sample.latency_seconds[0]);
      QVERIFY2(perToken >= 0.85 * low && perToken <= 1.15 * high,
               qPrintable(QStringLiteral("N = %1: %2 s per token between samples, latencies %3 and %4 s")
                              .arg(sample.tokens).arg(perToken).arg(low).arg(high)));
      QVERIFY(sample.latency_low_seconds[0] <= sample.latency_seconds[0] * 1.05);
      QVERIFY(sample.latency_high_seconds[0] >= sample.latency_seconds[0] * 0.95);
      QVERIFY(sample.cumulative_low_seconds[0] <= sample.cumulative_seconds[0]);
      QVERIFY(sample.cumulative_seconds[0] <= sample.cumulative_high_seconds[0]);
      QCOMPARE(sample.passes, 3);
      previous = sample.cumulative_seconds[0];
      previousTokens = sample.tokens;
      previousLatency = sample.latency_seconds[0];
    }
    // Against the truth without jitter or interruptions: within a few percent, while the wall
    // clock, interruptions included, is far above it.
    const double truth = 2e-6 * double(tokens) + slope * double(tokens) * double(tokens - 1) / 2;
    const bench::StreamSample& last = s.samples.back();
    QVERIFY2(std::abs(last.cumulative_seconds[0] / truth - 1) < 0.05,
             qPrintable(QStringLiteral("%1 s against %2 s").arg(last.cumulative_seconds[0]).arg(truth)));
    if (spikeEvery > 0) QVERIFY2(last.wall_seconds[0] > 2.5 * truth, qPrintable(QString::number(last.wall_seconds[0] / truth)));
  }

  // Flat steps: exponent 1 in every pass, a straight line; growing steps: above 1.1, bending
  // upward; a pass slowed for a while by the machine: the range straddles, no claim.
  void shapeFollowsTheMeasurement_data() {
    QTest::addColumn<double>("slope");
    QTest::addColumn<int>("passes");
    QTest::addColumn<int>("load");  // 0: quiet; 1: one pass 2.5x slower in its last quarter
    QTest::addColumn<int>("shape");
    QTest::newRow("flat") << 0.0 << 3 << 0 << int(bench::GrowthShape::straight);
    QTest::newRow("flat, interrupted") << 0.0 << 3 << 2 << int(bench::GrowthShape::straight);
    QTest::newRow("growing") << 4e-9 << 3 << 0 << int(bench::GrowthShape::bends_upward);
    QTest::newRow("flat, one pass slowed late") << 0.0 << 3 << 1 << int(bench::GrowthShape::uncertain);
    QTest::newRow("flat, one pass") << 0.0 << 1 << 0 << int(bench::GrowthShape::single_pass);
  }
  void shapeFollowsTheMeasurement() {
    QFETCH(double, slope);
    QFETCH(int, passes);
    QFETCH(int, load);
    QFETCH(int, shape);
    const long tokens = 8192;
    const auto slowdown = [load, tokens](int p, long t) { return load == 1 && p == 1 && t > 3 * tokens / 4 ? 2.5 : 1.0; };
    const Passes steps = synthetic(passes, tokens, 2e-6, slope, 0.1, load == 2 ? 20 : 0, 200.0, slowdown);
    const Summary s = summarize(steps, points(tokens));
    QVERIFY2(int(bench::growth_shape(s.fit)) == shape,
             qPrintable(QStringLiteral("k = %1 (%2-%3), %4 points over %5 passes")
                            .arg(s.fit.time_exponent).arg(s.fit.time_exponent_low).arg(s.fit.time_exponent_high)
                            .arg(s.fit.fit_points).arg(s.fit.passes)));
    QCOMPARE(s.fit.passes, passes);
    QVERIFY(s.fit.time_exponent_low <= s.fit.time_exponent && s.fit.time_exponent <= s.fit.time_exponent_high);
    // The fit covers the upper half of N.
    QCOMPARE(s.fit.fit_to_tokens, tokens);
    QVERIFY(s.fit.fit_from_tokens >= tokens / 2);
    if (slope == 0 && load != 1) QVERIFY(std::abs(s.fit.time_exponent - 1) < 0.03);
  }

  // Passes that disagree by more than half the median measured the machine, not the model: those
  // samples are not fitted, and with too few left there is no exponent to state.
  void samplesLostInTheNoiseAreNotFitted() {
    const long tokens = 4096;
    const auto slowdown = [](int p, long) { return p == 2 ? 3.0 : 1.0; };
    const Summary s = summarize(synthetic(3, tokens, 2e-6, 0.0, 0.05, 0, 1.0, slowdown), points(tokens));
    QCOMPARE(s.fit.fit_points, 0);
    QCOMPARE(bench::growth_shape(s.fit), bench::GrowthShape::unmeasured);
    QCOMPARE(bench::growth_shape(bench::GrowthFit{}), bench::GrowthShape::unmeasured);
  }

  // A pass stopped early keeps what it measured: the samples the first pass reached, with the
  // medians of the passes that got there.
  void aPassStoppedEarlyCountsWhereItReached() {
    Passes steps = synthetic(3, 1024, 1e-6, 0.0, 0.0, 0, 1.0, kQuiet);
    steps[2].resize(300);
    const Summary s = summarize(steps, points(1024));
    QCOMPARE(s.samples.size(), points(1024).size());
    QCOMPARE(s.samples.front().passes, 3);
    QCOMPARE(s.samples.back().passes, 2);
    QCOMPARE(s.pass_cumulative.size(), std::size_t(2));
    QVERIFY(std::abs(s.samples.back().cumulative_seconds[0] - 1024e-6) < 1e-9);
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestStreamSummary)
#include "tst_stream_summary.moc"
