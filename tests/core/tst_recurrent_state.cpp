// The state per head of every family that reads attention as an RNN (core/model/recurrent_state.hpp):
// the counts follow their formulas; for the application's three models they are what the streams
// actually keep, token after token (the linear Transformer's float stream keeps a compensation term
// beside each number of S and z, so twice the count); bad sizes are refused.
#include <QtTest>

#include <random>
#include <stdexcept>
#include <vector>

#include "core/model/forecast_stream.hpp"
#include "core/model/parameter_init.hpp"
#include "core/model/recurrent_state.hpp"

using namespace aaren;

class TestRecurrentState : public QObject {
  Q_OBJECT

 private slots:
  void countsFollowTheFormulas() {
    QCOMPARE(state_numbers_per_head(RecurrentFamily::kv_cache, 1024, 16), std::size_t(2 * 1024 * 16));
    QCOMPARE(state_numbers_per_head(RecurrentFamily::kv_cache, 0, 16), std::size_t(0));
    for (const long tokens : {1L, 7L, 4096L}) {
      QCOMPARE(state_numbers_per_head(RecurrentFamily::linear, tokens, 16), std::size_t(16 * 16 + 16));
      QCOMPARE(state_numbers_per_head(RecurrentFamily::aaren, tokens, 16), std::size_t(2 + 16));
      QCOMPARE(state_numbers_per_head(RecurrentFamily::retnet, tokens, 8), std::size_t(64));
      QCOMPARE(state_numbers_per_head(RecurrentFamily::mamba, tokens, 8), std::size_t(kMambaStates * 8));
    }
    // The three of the application first, and only they are marked so.
    const auto families = recurrent_families();
    QCOMPARE(families.size(), std::size_t(7));
    for (std::size_t i = 0; i < families.size(); ++i) {
      QCOMPARE(families[i].in_app, i < 3);
      QVERIFY(!families[i].name.empty() && !families[i].update.empty() && !families[i].size.empty());
      QCOMPARE(recurrent_family(families[i].family).name, families[i].name);
    }
    for (const ModelKind kind : kModelKinds) QVERIFY(recurrent_family(recurrent_family_of(kind)).in_app);
  }

  void theStreamsKeepWhatTheCountsSay_data() {
    QTest::addColumn<int>("kind");
    for (const ModelKind kind : kModelKinds) QTest::newRow(to_string(kind).data()) << int(kind);
  }

  void theStreamsKeepWhatTheCountsSay() {
    QFETCH(int, kind);
    ModelConfig c;
    c.kind = ModelKind(kind);
    c.d_model = 24;
    c.heads = 3;
    c.layers = 2;
    c.d_ff = 32;
    c.seq_len = 9;
    c.horizon = 2;
    c.channels = 2;
    const ParameterLayout layout(c);
    std::mt19937 rng(5);
    std::vector<float> params;
    init_parameters(params, layout, rng);
    ForecastStream<float> stream(c, layout, params.data(), c.seq_len);
    const std::vector<float> mean(std::size_t(c.channels), 0.0f), sigma(std::size_t(c.channels), 1.0f);
    stream.reset(mean.data(), sigma.data());
    const std::size_t copies = c.kind == ModelKind::linear ? 2 : 1;  // the compensation terms
    const RecurrentFamily family = recurrent_family_of(c.kind);
    for (long t = 1; t <= c.seq_len; ++t) {
      const std::vector<float> x{float(t) * 0.1f, -0.5f};
      stream.step(x.data());
      const std::size_t counted =
          copies * std::size_t(c.layers * c.heads) * state_numbers_per_head(family, t, c.d_head()) * sizeof(float);
      QCOMPARE(stream.state_bytes(), counted);
    }
  }

  void badSizesAreRefused() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, state_numbers_per_head(RecurrentFamily::aaren, -1, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, state_numbers_per_head(RecurrentFamily::linear, 3, 0));
  }
};

QTEST_APPLESS_MAIN(TestRecurrentState)
#include "tst_recurrent_state.moc"
