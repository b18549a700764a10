// The streaming benchmark behind `aaren bench stream` and the Efficiency page: the state each
// model keeps (Aaren's and the linear Transformer's constant, the KV cache exactly linear), the
// models chosen and those a device leaves out, the growth fits on synthetic data
// with known exponents, the bytes a step reads and its rate against the read bandwidth, a stop flag
// that keeps what was measured, and the CSV's columns.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/bench/stream_bench.hpp"
#include "core/model/forecast_stream.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/train/cpu_only_models.hpp"

namespace aaren {

namespace {

constexpr double kFloatBytes = 4;

// A model small enough that streaming it is quick: what is checked are counts, not speed.
bench::StreamBenchOptions tinyStream(long tokens, int samples) {
  bench::StreamBenchOptions options;
  options.tokens = tokens;
  options.samples = samples;
  options.repeats = 1;
  options.warmup = 4;
  options.parallel = false;
  options.probe_bandwidth = false;  // what is checked here are counts; one test runs the probe
  options.model.d_model = 16;
  options.model.heads = 2;
  options.model.layers = 3;
  options.model.d_ff = 32;
  return options;
}

// Samples at N = 16 .. 4096 whose cumulative time is scale * N^exponent, each value multiplied by
// exp(noise * e) with e standard normal.
std::vector<bench::StreamSample> syntheticSamples(double exponent, double noise, int model) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<bench::StreamSample> samples;
  for (long n = 16; n <= 4096; n += 16) {
    bench::StreamSample s;
    s.tokens = n;
    s.cumulative_seconds[model] = 2e-6 * std::pow(double(n), exponent) * std::exp(noise * normal(rng));
    s.latency_seconds[model] = 3e-7 * std::pow(double(n), exponent - 1) * std::exp(noise * normal(rng));
    s.state_bytes[model] = 100.0 + 24.0 * double(n);
    samples.push_back(s);
  }
  return samples;
}

// A device stream class of the shape DeviceStreamStepper takes, run on the CPU.
class CpuStreamStandIn {
 public:
  CpuStreamStandIn(const ModelConfig& config, const float* params, long capacity)
      : layout_(config), stream_(config, layout_, params, capacity), hidden_(std::size_t(config.d_model)) {}
  void reset() { stream_.reset(); }
  void step(const float* x) { stream_.step(x); }
  void hidden(float* out) const { std::copy(hidden_.begin(), hidden_.end(), out); }
  long tokens() const { return stream_.tokens(); }

 private:
  ParameterLayout layout_;
  ForecastStream<float> stream_;
  std::vector<float> hidden_;
};

QStringList splitLines(const std::string& text) {
  return QString::fromStdString(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

}  // namespace

class TestStreamBench : public QObject {
  Q_OBJECT

 private slots:
  void stateBytesAreConstantForAarenAndTheLinearModelAndLinearForTheTransformer() {
    const bench::StreamBenchOptions options = tinyStream(96, 96);
    const bench::StreamBenchResult result = bench::run_stream_bench(options);
    QVERIFY(!result.stopped_early);
    QVERIFY(result.samples.size() >= 24);
    QCOMPARE(result.samples.back().tokens, options.tokens);
    QCOMPARE(result.kinds, options.kinds);
    QCOMPARE(result.kinds.size(), std::size_t(bench::kStreamModels));  // all three by default
    QVERIFY(result.left_out_note.empty());

    const auto& m = options.model;
    // Aaren: per layer and head m and u, per layer w (d_model): docs/DESIGN.md section 4.
    const double aarenBytes = double(m.layers) * double(m.d_model + 2 * m.heads) * kFloatBytes;
    const double bytesPerToken = 2.0 * m.layers * m.d_model * kFloatBytes;
    // The linear Transformer: per layer and head S (d_head x d_head) and z (d_head), each with its
    // compensation terms in float.
    const double dHead = double(m.d_model / m.heads);
    const double linearBytes = 2.0 * m.layers * m.heads * (dHead * dHead + dHead) * kFloatBytes;
    const int aaren = bench::stream_model_index(ModelKind::aaren),
              transformer = bench::stream_model_index(ModelKind::transformer),
              linear = bench::stream_model_index(ModelKind::linear);
    long previous = 0;
    for (const bench::StreamSample& s : result.samples) {
      QVERIFY2(s.tokens > previous, "token counts increase");
      previous = s.tokens;
      QCOMPARE(s.state_bytes[aaren], aarenBytes);
      QCOMPARE(s.state_bytes[transformer], bytesPerToken * double(s.tokens));
      QCOMPARE(s.state_bytes[linear], linearBytes);
      for (const ModelKind kind : kModelKinds) {
        // The models the run streams: one input channel.
        ModelConfig streamed = m;
        streamed.channels = 1;
        streamed.kind = kind;
        const int k = bench::stream_model_index(kind);
        QCOMPARE(s.bytes_read[k], double(bench::stream_step_bytes(streamed, s.tokens)));
        QVERIFY(s.cumulative_seconds[k] > 0);
        QVERIFY(s.latency_seconds[k] >= 0);
      }
    }
    QCOMPARE(result.fit[aaren].memory_bytes_per_token, 0.0);
    QCOMPARE(result.fit[linear].memory_bytes_per_token, 0.0);
    QVERIFY(std::abs(result.fit[transformer].memory_bytes_per_token - bytesPerToken) < 1e-9 * bytesPerToken);
  }

  void onlyTheChosenModelsStream() {
    bench::StreamBenchOptions options = tinyStream(48, 8);
    options.kinds = {ModelKind::linear, ModelKind::aaren};
    options.parallel = true;
    const bench::StreamBenchResult result = bench::run_stream_bench(options);
    QCOMPARE(result.kinds, options.kinds);
    QVERIFY(bench::streamed(result, ModelKind::linear) && !bench::streamed(result, ModelKind::transformer));
    const int transformer = bench::stream_model_index(ModelKind::transformer);
    for (const bench::StreamSample& s : result.samples) {
      QCOMPARE(s.cumulative_seconds[transformer], 0.0);  // not streamed: nothing recorded
      QCOMPARE(s.state_bytes[transformer], 0.0);
      QVERIFY(s.cumulative_seconds[bench::stream_model_index(ModelKind::linear)] > 0);
    }
    QCOMPARE(result.parallel_seconds[transformer], -1.0);
    QVERIFY(result.parallel_seconds[bench::stream_model_index(ModelKind::linear)] >= 0);

    options.kinds.clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bench::run_stream_bench(options));
  }

  void aDeviceStreamsOnlyTheModelsItRuns() {
    // A stepper stands for a device: the GPU model does not run the linear Transformer, so it is left out
    // with core's reason, and a run of it alone is refused with that reason.
    int made = 0;
    bench::StreamBenchOptions options = tinyStream(16, 4);
    options.stepper = [&made](const ModelConfig& config, const float* params, long capacity) {
      ++made;
      return bench::device_stream_stepper<CpuStreamStandIn>()(config, params, capacity);
    };
    const bench::StreamBenchResult result = bench::run_stream_bench(options);
    QCOMPARE(made, 2);
    QCOMPARE(result.kinds, (std::vector<ModelKind>{ModelKind::aaren, ModelKind::transformer}));
    QCOMPARE(result.kinds, bench::streamed_kinds(options));
    QCOMPARE(result.left_out_note, "not streamed: " + cpu_only_reason(ModelKind::linear));
    options.kinds = {ModelKind::linear};
    QVERIFY(bench::streamed_kinds(options).empty());
    try {
      bench::run_stream_bench(options);
      QFAIL("a device that runs none of the models must refuse");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find(cpu_only_reason(ModelKind::linear)) != std::string::npos, e.what());
    }
  }

  void progressReportsEverySampleInOrder() {
    std::vector<long> seen;
    const bench::StreamBenchResult result =
        bench::run_stream_bench(tinyStream(64, 16), [&](const bench::StreamSample& s) { seen.push_back(s.tokens); });
    QCOMPARE(seen.size(), result.samples.size());
    for (std::size_t i = 0; i < seen.size(); ++i) QCOMPARE(seen[i], result.samples[i].tokens);
  }

  void fittedSlopeOfALine() {
    const std::vector<double> x{1, 2, 3, 4, 5};
    std::vector<double> y;
    for (double v : x) y.push_back(-3.5 * v + 2);
    QCOMPARE(bench::fitted_slope(x, y), -3.5);
    QCOMPARE(bench::fitted_slope({4}, {1}), 0.0);         // one point has no slope
    QCOMPARE(bench::fitted_slope({2, 2, 2}, {1, 5, 9}), 0.0);  // nor has a vertical line
  }

  void fitGrowthRecoversKnownExponents_data() {
    QTest::addColumn<double>("exponent");
    QTest::addColumn<double>("noise");
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<int>("model");
    QTest::newRow("linear, exact") << 1.0 << 0.0 << 1e-9 << 0;
    QTest::newRow("quadratic, exact") << 2.0 << 0.0 << 1e-9 << 1;
    QTest::newRow("N^1.5, exact") << 1.5 << 0.0 << 1e-9 << 0;
    QTest::newRow("linear, 2% noise") << 1.0 << 0.02 << 0.05 << 1;
    QTest::newRow("quadratic, 2% noise") << 2.0 << 0.02 << 0.05 << 0;
    QTest::newRow("N^1.5, 2% noise") << 1.5 << 0.02 << 0.05 << 1;
  }

  void fitGrowthRecoversKnownExponents() {
    QFETCH(double, exponent);
    QFETCH(double, noise);
    QFETCH(double, tolerance);
    QFETCH(int, model);
    const bench::GrowthFit fit = bench::fit_growth(syntheticSamples(exponent, noise, model), model);
    QVERIFY2(std::abs(fit.time_exponent - exponent) <= tolerance,
             qPrintable(QStringLiteral("fitted %1, expected %2").arg(fit.time_exponent).arg(exponent)));
    // Per-token latency grows as the derivative of the cumulative time: one power less.
    QVERIFY2(std::abs(fit.latency_exponent - (exponent - 1)) <= tolerance,
             qPrintable(
                 QStringLiteral("per-token fitted %1, expected %2").arg(fit.latency_exponent).arg(exponent - 1)));
    QVERIFY(std::abs(fit.memory_bytes_per_token - 24.0) < 1e-9);
  }

  void fitGrowthUsesTheUpperHalfOfN() {
    // Quadratic below N/2 and linear above: only the upper half counts.
    std::vector<bench::StreamSample> samples;
    for (long n = 100; n <= 10000; n += 100) {
      bench::StreamSample s;
      s.tokens = n;
      s.cumulative_seconds[0] = n < 5000 ? 1e-9 * double(n) * double(n) : 5e-6 * double(n);
      s.latency_seconds[0] = n < 5000 ? 1e-9 * double(n) * double(n) : 5e-6;
      samples.push_back(s);
    }
    QVERIFY(std::abs(bench::fit_growth(samples, 0).time_exponent - 1.0) < 1e-9);
    QVERIFY(std::abs(bench::fit_growth(samples, 0).latency_exponent) < 1e-9);
    QCOMPARE(bench::fit_growth({}, 0).time_exponent, 0.0);
  }

  // The parameters a step reads, counted from the layout's names rather than by the formula: every
  // parameter but the final LayerNorm and the forecast head (read by forecast(), not by a step),
  // and, for Aaren, not its q0 and Wq (its query is computed once).
  void bytesReadPerStepAreTheWeightsUsedAndTheState_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("aaren") << int(ModelKind::aaren);
    QTest::newRow("transformer") << int(ModelKind::transformer);
  }
  void bytesReadPerStepAreTheWeightsUsedAndTheState() {
    QFETCH(int, kind);
    ModelConfig config;
    config.kind = ModelKind(kind);
    config.d_model = 24;
    config.heads = 3;
    config.layers = 2;
    config.d_ff = 40;
    config.channels = 1;
    config.seq_len = 1;
    config.horizon = 1;
    const ParameterLayout layout(config);
    double used = 0;
    for (const ParameterEntry& e : layout.entries()) {
      const QString name = QString::fromStdString(e.name);
      const bool not_read = name.startsWith(QStringLiteral("ln_f.")) || name.startsWith(QStringLiteral("head.")) ||
                            name.contains(QStringLiteral(".mixer.q0")) ||
                            (config.kind == ModelKind::aaren && name.contains(QStringLiteral(".mixer.wq.")));
      if (!not_read) used += double(e.size) * kFloatBytes;
    }
    for (long tokens : {1L, 2L, 1000L}) {
      const double state = double(bench::stream_state_bytes(config, tokens));
      QCOMPARE(double(bench::stream_step_bytes(config, tokens)), used + state);
    }
  }

  void stepBoundIsTheLastSamplesRateAgainstTheBandwidth() {
    bench::StreamBenchResult result;
    QCOMPARE(bench::step_bound(result, 1).bytes_read, 0.0);  // nothing measured
    bench::StreamSample first, last;
    first.tokens = 10;
    first.bytes_read[1] = 1e3;
    first.latency_seconds[1] = 1e-6;
    last.tokens = 20;
    last.bytes_read[1] = 8e6;
    last.latency_seconds[1] = 4e-4;  // 20 GB/s
    result.samples = {first, last};
    QCOMPARE(bench::step_bound(result, 1).bytes_read, 8e6);
    QCOMPARE(bench::step_bound(result, 1).bytes_per_second, 2e10);
    QCOMPARE(bench::step_bound(result, 1).fraction_of_bandwidth, 0.0);  // no bandwidth measured
    result.read_bandwidth = 25e9;
    QCOMPARE(bench::step_bound(result, 1).fraction_of_bandwidth, 0.8);
  }

  void runReportsTheBandwidthItMeasuredOrWasGiven() {
    bench::StreamBenchOptions options = tinyStream(32, 8);
    QCOMPARE(bench::run_stream_bench(options).read_bandwidth, 0.0);  // probe off
    options.read_bandwidth = 12.5e9;
    QCOMPARE(bench::run_stream_bench(options).read_bandwidth, 12.5e9);
    options.read_bandwidth.reset();
    options.probe_bandwidth = true;
    const bench::StreamBenchResult measured = bench::run_stream_bench(options);
    QVERIFY2(measured.read_bandwidth > 0, "the probe measured a rate");
    const bench::StepBound bound = bench::step_bound(measured, 1);
    QCOMPARE(bound.bytes_read, measured.samples.back().bytes_read[1]);
    QVERIFY(bound.fraction_of_bandwidth > 0);
  }

  void stopFlagEndsEarlyAndKeepsTheMeasuredSamples() {
    std::atomic<bool> stop{false};
    int reported = 0;
    bench::StreamBenchOptions options = tinyStream(4096, 64);
    options.repeats = 2;
    options.parallel = true;
    const bench::StreamBenchResult result = bench::run_stream_bench(
        options, [&](const bench::StreamSample&) { stop.store(++reported == 5); }, &stop);
    QVERIFY(result.stopped_early);
    QCOMPARE(result.samples.size(), std::size_t(5));
    QVERIFY(result.samples.back().tokens < options.tokens);
    for (const bench::StreamSample& s : result.samples) {
      QVERIFY(s.cumulative_seconds[0] > 0 && s.cumulative_seconds[1] > 0);
      QCOMPARE(s.state_bytes[1], 2.0 * options.model.layers * options.model.d_model * kFloatBytes * double(s.tokens));
    }
    QCOMPARE(result.parallel_seconds[0], -1.0);  // a stopped run skips the parallel forward
    QCOMPARE(result.parallel_seconds[1], -1.0);
  }

  void stopBeforeTheFirstSampleMeasuresNothing() {
    const std::atomic<bool> stop{true};
    const bench::StreamBenchResult result = bench::run_stream_bench(tinyStream(256, 16), {}, &stop);
    QVERIFY(result.stopped_early);
    QVERIFY(result.samples.empty());
    QCOMPARE(splitLines(bench::stream_csv(result)).size(), qsizetype(1));  // the header alone
  }

  void csvHasTheDocumentedColumnsAndOneRowPerSample_data() {
    QTest::addColumn<bool>("withLinear");
    QTest::newRow("three models: the linear Transformer's columns last") << true;
    QTest::newRow("Aaren and the Transformer: the columns of before") << false;
  }

  void csvHasTheDocumentedColumnsAndOneRowPerSample() {
    QFETCH(bool, withLinear);
    bench::StreamBenchOptions options = tinyStream(128, 32);
    if (!withLinear) options.kinds = {ModelKind::aaren, ModelKind::transformer};
    const bench::StreamBenchResult result = bench::run_stream_bench(options);
    const QStringList lines = splitLines(bench::stream_csv(result));
    QString header = QStringLiteral("tokens,aaren_latency_s,transformer_latency_s,aaren_cumulative_s,"
                                    "transformer_cumulative_s,aaren_state_bytes,transformer_state_bytes,"
                                    "aaren_rss_bytes,transformer_rss_bytes,"
                                    "aaren_bytes_read,transformer_bytes_read");
    if (withLinear)
      header += QStringLiteral(",linear_latency_s,linear_cumulative_s,linear_state_bytes,linear_rss_bytes,"
                               "linear_bytes_read");
    QCOMPARE(lines.first(), header);
    QCOMPARE(qsizetype(result.samples.size()), lines.size() - 1);
    const int linear = bench::stream_model_index(ModelKind::linear);
    for (qsizetype row = 1; row < lines.size(); ++row) {
      const QStringList cells = lines[row].split(QLatin1Char(','));
      QCOMPARE(cells.size(), qsizetype(withLinear ? 16 : 11));
      std::vector<double> values;
      for (const QString& cell : cells) {
        bool ok = false;
        values.push_back(cell.toDouble(&ok));
        QVERIFY2(ok, qPrintable(QStringLiteral("row %1: '%2' is not a number").arg(row).arg(cell)));
      }
      const bench::StreamSample& s = result.samples[std::size_t(row - 1)];
      QCOMPARE(values[0], double(s.tokens));
      QCOMPARE(values[5], s.state_bytes[0]);
      QCOMPARE(values[6], s.state_bytes[1]);
      QVERIFY(values[3] > 0 && values[4] > 0);
      QCOMPARE(values[9], s.bytes_read[0]);
      QCOMPARE(values[10], s.bytes_read[1]);
      if (!withLinear) continue;
      QCOMPARE(values[11], s.latency_seconds[linear]);
      QCOMPARE(values[12], s.cumulative_seconds[linear]);
      QCOMPARE(values[13], s.state_bytes[linear]);
      QCOMPARE(values[15], s.bytes_read[linear]);
      QVERIFY(values[12] > 0);
    }
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestStreamBench)
#include "tst_stream_bench.moc"
