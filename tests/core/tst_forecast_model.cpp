// The forecasting models: gradients against finite differences, streaming against the parallel
// forward, state sizes, parameter counts as in the paper.
#include <QtTest>
#include <cmath>
#include <random>

#include "core/bench/stream_bench.hpp"
#include "core/model/forecast_model.hpp"
#include "core/model/forecast_stream.hpp"

using namespace aaren;

namespace {

ModelConfig tiny(ModelKind kind) {
  ModelConfig c;
  c.kind = kind;
  c.d_model = 8;
  c.heads = 2;
  c.layers = 2;
  c.d_ff = 12;
  c.seq_len = 7;
  c.horizon = 3;
  c.channels = 2;
  return c;
}

std::vector<double> random_vector(std::size_t n, std::mt19937& rng, double scale = 1.0) {
  std::normal_distribution<double> normal(0.0, scale);
  std::vector<double> v(n);
  for (auto& x : v) x = normal(rng);
  return v;
}

double loss_of(const std::vector<double>& params, const ParameterLayout& layout, const ModelConfig& c,
               const std::vector<double>& x, const std::vector<double>& truth) {
  ForwardState<double> state(c);
  forecast_forward(state, params.data(), layout, c, x.data());
  return mse_loss<double>(nullptr, state.y.data(), truth.data(), c.horizon * c.outputs());
}

}  // namespace

class TestForecastModel : public QObject {
  Q_OBJECT
 private slots:
  // target_channel -1: every channel forecast (features M and S); otherwise that one (MS).
  void gradients_match_finite_differences_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("target_channel");
    QTest::newRow("aaren") << int(ModelKind::aaren) << -1;
    QTest::newRow("transformer") << int(ModelKind::transformer) << -1;
    QTest::newRow("aaren, the second channel alone (MS)") << int(ModelKind::aaren) << 1;
    QTest::newRow("transformer, the first channel alone (MS)") << int(ModelKind::transformer) << 0;
    QTest::newRow("linear") << int(ModelKind::linear) << -1;
    QTest::newRow("linear, the second channel alone (MS)") << int(ModelKind::linear) << 1;
  }
  void gradients_match_finite_differences() {
    QFETCH(int, kind);
    QFETCH(int, target_channel);
    ModelConfig c = tiny(ModelKind(kind));
    c.target_channel = target_channel;
    const ParameterLayout layout(c);
    std::mt19937 rng(7);
    std::vector<double> params;
    init_parameters(params, layout, rng);
    // Perturb LayerNorm and q0 so no parameter sits at a special value.
    for (auto& p : params) p += std::normal_distribution<double>(0.0, 0.05)(rng);
    const auto x = random_vector(std::size_t(c.seq_len * c.channels), rng, 2.0);
    const auto truth = random_vector(std::size_t(c.horizon * c.outputs()), rng);

    ForwardState<double> state(c);
    BackwardScratch<double> scratch(c);
    forecast_forward(state, params.data(), layout, c, x.data());
    std::vector<double> dy(std::size_t(c.horizon * c.outputs()));
    mse_loss(dy.data(), state.y.data(), truth.data(), c.horizon * c.outputs());
    std::vector<double> grads(params.size(), 0.0);
    forecast_backward(grads.data(), scratch, state, params.data(), layout, c, dy.data());

    // Relative error per entry; entries far below the largest gradient (some are exactly zero:
    // a key bias shifts every score of a head equally) are compared on the largest one's scale.
    double largest = 0;
    for (double g : grads) largest = std::max(largest, std::abs(g));
    const double floor = 1e-3 * largest;
    double worst = 0;
    std::string worst_name;
    const double h = 1e-5;
    for (const ParameterEntry& e : layout.entries()) {
      for (std::size_t i = 0; i < e.size; ++i) {
        std::vector<double> p = params;
        p[e.offset + i] += h;
        const double up = loss_of(p, layout, c, x, truth);
        p[e.offset + i] -= 2 * h;
        const double down = loss_of(p, layout, c, x, truth);
        const double numeric = (up - down) / (2 * h);
        const double analytic = grads[e.offset + i];
        const double rel = std::abs(numeric - analytic) / std::max(floor, std::abs(numeric) + std::abs(analytic));
        if (rel > worst) {
          worst = rel;
          worst_name = e.name + "[" + std::to_string(i) + "] analytic " + std::to_string(analytic) + " numeric " +
                       std::to_string(numeric);
        }
      }
    }
    QVERIFY2(worst < 1e-6, qPrintable(QString("worst relative error %1 at %2").arg(worst).arg(worst_name.c_str())));
  }

  void streaming_equals_parallel_data() { gradients_match_finite_differences_data(); }
  void streaming_equals_parallel() {
    QFETCH(int, kind);
    QFETCH(int, target_channel);
    ModelConfig c = tiny(ModelKind(kind));
    c.d_model = 32;
    c.heads = 4;
    c.d_ff = 64;
    c.seq_len = 40;
    c.horizon = 5;
    c.channels = 3;
    c.target_channel = target_channel;
    const ParameterLayout layout(c);
    std::mt19937 rng(11);
    std::vector<float> params;
    init_parameters(params, layout, rng);
    std::vector<float> x(std::size_t(c.seq_len * c.channels));
    for (auto& v : x) v = std::normal_distribution<float>(0.0f, 3.0f)(rng);
    ForwardState<float> state(c);
    forecast_forward(state, params.data(), layout, c, x.data());

    ForecastStream<float> stream(c, layout, params.data(), c.seq_len);
    stream.reset(state.in_mean.data(), state.in_sigma.data());
    double worst = 0;
    for (int t = 0; t < c.seq_len; ++t) {
      const float* h = stream.step(x.data() + std::size_t(t * c.channels));
      const float* ref = state.hidden(c.layers) + std::size_t(t * c.d_model);
      double diff = 0, scale = 0;
      for (int j = 0; j < c.d_model; ++j) {
        diff = std::max(diff, double(std::abs(h[j] - ref[j])));
        scale = std::max(scale, double(std::abs(ref[j])));
      }
      worst = std::max(worst, diff / scale);
    }
    QVERIFY2(worst < 1e-5, qPrintable(QString("hidden states differ by %1 (relative)").arg(worst)));
    std::vector<float> y(state.y.size());
    stream.forecast(y.data());
    for (std::size_t i = 0; i < y.size(); ++i)
      QVERIFY2(std::abs(y[i] - state.y[i]) <= 1e-5f * (1.0f + std::abs(state.y[i])),
               qPrintable(QString("forecast %1: %2 vs %3").arg(i).arg(y[i]).arg(state.y[i])));
  }

  // Features MS: the head forecasts (horizon, 1), and the forecast goes back in the target's own
  // units, with the instance norm's mean and sigma of the target's look-back (not another channel's).
  void target_alone_forecast_uses_the_targets_statistics_data() {
    QTest::addColumn<int>("target_channel");
    QTest::newRow("first") << 0;
    QTest::newRow("last") << 1;
  }
  void target_alone_forecast_uses_the_targets_statistics() {
    QFETCH(int, target_channel);
    ModelConfig c = tiny(ModelKind::aaren);
    c.target_channel = target_channel;
    const ParameterLayout layout(c);
    QCOMPARE(c.outputs(), 1);
    const auto shape_of = [&](const char* name) {
      for (const ParameterEntry& e : layout.entries())
        if (e.name == name) return e.shape;
      return std::vector<std::int64_t>{};
    };
    QCOMPARE(shape_of("head.weight"), (std::vector<std::int64_t>{c.horizon, c.d_model}));
    QCOMPARE(shape_of("head.bias"), (std::vector<std::int64_t>{c.horizon}));
    QCOMPARE(shape_of("embed.weight"), (std::vector<std::int64_t>{c.d_model, c.channels}));  // every channel in
    std::mt19937 rng(3);
    std::vector<double> params;
    init_parameters(params, layout, rng);
    // Channels of very different levels and spreads, so that another channel's statistics would show.
    std::vector<double> x = random_vector(std::size_t(c.seq_len * c.channels), rng);
    for (int t = 0; t < c.seq_len; ++t) x[std::size_t(t * c.channels + 1)] = 100 + 20 * x[std::size_t(t * c.channels + 1)];
    ForwardState<double> state(c);
    forecast_forward(state, params.data(), layout, c, x.data());
    QCOMPARE(int(state.y.size()), c.horizon);
    const std::size_t t = std::size_t(target_channel), other = 1 - t;
    QVERIFY(std::abs(state.in_mean[t] - state.in_mean[other]) > 50);
    for (int h = 0; h < c.horizon; ++h)
      QCOMPARE(state.y[std::size_t(h)], state.head_out[std::size_t(h)] * state.in_sigma[t] + state.in_mean[t]);
  }

  void state_bytes_constant_for_aaren_and_the_linear_transformer_linear_for_the_transformer() {
    ModelConfig c = tiny(ModelKind::aaren);
    c.d_model = 16;
    c.heads = 4;
    const ParameterLayout layout(c);
    std::mt19937 rng(3);
    std::vector<float> params;
    init_parameters(params, layout, rng);
    std::vector<float> row(std::size_t(c.channels), 0.5f);
    ForecastStream<float> aaren(c, layout, params.data());
    aaren.step(row.data());
    const std::size_t after_one = aaren.state_bytes();
    QCOMPARE(after_one, std::size_t(c.layers * (c.d_model + 2 * c.heads)) * sizeof(float));
    for (int t = 1; t < 100000; ++t) aaren.step(row.data());
    QCOMPARE(aaren.tokens(), 100000L);
    QCOMPARE(aaren.state_bytes(), after_one);

    c.kind = ModelKind::transformer;
    const ParameterLayout tlayout(c);
    std::vector<float> tparams;
    init_parameters(tparams, tlayout, rng);
    ForecastStream<float> transformer(c, tlayout, tparams.data(), 500);
    for (int t = 1; t <= 500; ++t) {
      transformer.step(row.data());
      QCOMPARE(transformer.state_bytes(), std::size_t(2 * c.layers * c.d_model * t) * sizeof(float));
    }

    // The linear Transformer's (S, z) per head: d_head^2 + d_head numbers, and as many compensation
    // terms in float, whatever the number of tokens; and what the streaming benchmark counts.
    c.kind = ModelKind::linear;
    ForecastStream<float> linear(c, tlayout, tparams.data());
    const std::size_t constant = std::size_t(2 * c.layers * c.heads * (c.d_head() * c.d_head() + c.d_head())) * sizeof(float);
    for (int t = 1; t <= 20000; ++t) {
      linear.step(row.data());
      if (t == 1 || t == 20000) QCOMPARE(linear.state_bytes(), constant);
    }
    QCOMPARE(bench::stream_state_bytes(c, 20000), constant);
    const std::vector<double> exact_params(tparams.begin(), tparams.end()), exact_row(row.begin(), row.end());
    ForecastStream<double> exact(c, tlayout, exact_params.data());
    exact.step(exact_row.data());
    QCOMPARE(exact.state_bytes(), constant);  // double keeps no compensation: half the numbers, twice the size
  }

  void parameter_counts_match_the_paper() {
    ModelConfig c;
    c.d_model = 512;
    c.heads = 8;
    c.layers = 1;
    c.d_ff = 2048;
    c.kind = ModelKind::transformer;
    QCOMPARE(ParameterLayout(c).block_total(0), std::size_t(3152384));
    c.kind = ModelKind::aaren;
    QCOMPARE(ParameterLayout(c).block_total(0), std::size_t(3152896));
    c.kind = ModelKind::linear;  // the Transformer's projections, another attention
    QCOMPARE(ParameterLayout(c).block_total(0), std::size_t(3152384));
  }

  void layout_names_follow_pytorch() {
    const ParameterLayout layout(tiny(ModelKind::aaren));
    QStringList names;
    for (const auto& e : layout.entries()) names << QString::fromStdString(e.name);
    for (const char* expected : {"embed.weight", "embed.bias", "blocks.0.ln1.weight", "blocks.0.mixer.q0",
                                 "blocks.1.mixer.wq.weight", "blocks.1.mixer.wo.bias", "blocks.1.ffn.fc1.weight",
                                 "blocks.1.ffn.fc2.bias", "ln_f.weight", "head.weight", "head.bias"})
      QVERIFY2(names.contains(expected), expected);
    const ParameterLayout transformer(tiny(ModelKind::transformer));
    QCOMPARE(transformer.entries().size() + std::size_t(2), layout.entries().size());  // no q0 in 2 blocks
    for (const auto& e : transformer.entries())
      QVERIFY2(e.name.find("q0") == std::string::npos, e.name.c_str());
  }

  void invalid_configurations_are_explained() {
    ModelConfig c;
    c.d_model = 64;
    c.heads = 3;
    try {
      c.validate();
      QFAIL("heads that do not divide d_model must be rejected");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("does not divide"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestForecastModel)
#include "tst_forecast_model.moc"
