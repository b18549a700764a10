// The attention probe: the scores and values it reads out of a model, run through the scan, give
// the model's own attention output (every prefix for Aaren, the last token for the Transformer);
// requests that do not fit the model are refused with the valid range.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/attention/methods.hpp"
#include "core/model/attention_probe.hpp"
#include "core/model/forecast_model.hpp"

using namespace aaren;

namespace {

LoadedForecastRun randomRun(ModelKind kind, unsigned seed) {
  LoadedForecastRun run;
  ModelConfig& c = run.config.model;
  c.kind = kind;
  c.d_model = 16;
  c.heads = 4;
  c.layers = 2;
  c.d_ff = 24;
  c.seq_len = 11;
  c.horizon = 3;
  c.channels = 2;
  std::mt19937 rng(seed);
  init_parameters(run.params, ParameterLayout(c), rng);
  return run;
}

std::vector<float> randomWindow(const ModelConfig& c, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.5f);
  std::vector<float> x(std::size_t(c.seq_len) * std::size_t(c.channels));
  for (float& value : x) value = normal(rng);
  return x;
}

// The model's attention output (before Wo) at `token`, in the probed head's chosen columns.
float modelAttention(const LoadedForecastRun& run, const std::vector<float>& window, int layer, int head, int token,
                     int dim) {
  const ModelConfig& c = run.config.model;
  ForwardState<float> state(c);
  forecast_forward(state, run.params.data(), ParameterLayout(c), c, window.data());
  return state.mixer[std::size_t(layer)].att[std::size_t(token) * std::size_t(c.d_model) +
                                              std::size_t(head * c.d_head() + dim)];
}

bool close(float a, float b) { return std::abs(a - b) <= 2e-5f * (1.0f + std::abs(b)); }

}  // namespace

class TestAttentionProbe : public QObject {
  Q_OBJECT

 private slots:
  void aarenPrefixOutputsAreTheModelsAttention_data();
  void aarenPrefixOutputsAreTheModelsAttention();
  void transformerProbeIsTheLastTokensAttention_data();
  void transformerProbeIsTheLastTokensAttention();
  void probeKeepsTheRequestedShape();
  void requestsThatDoNotFitAreRefused_data();
  void requestsThatDoNotFitAreRefused();
  void scaledWindowCopiesRowsOrNamesTheRange();
};

void TestAttentionProbe::aarenPrefixOutputsAreTheModelsAttention_data() {
  QTest::addColumn<int>("layer");
  QTest::addColumn<int>("head");
  QTest::addColumn<QList<int>>("dims");
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("method");
  QTest::newRow("layer 0, head 0, one dim, all tokens, sequential")
      << 0 << 0 << QList<int>{0} << 0 << int(AttentionMethod::sequential);
  QTest::newRow("layer 1, head 3, three dims, Hillis-Steele")
      << 1 << 3 << QList<int>{3, 0, 2} << 0 << int(AttentionMethod::hillis_steele);
  QTest::newRow("layer 1, head 2, two dims, first 7 tokens, Brent-Kung")
      << 1 << 2 << QList<int>{1, 2} << 7 << int(AttentionMethod::brent_kung);
  QTest::newRow("layer 0, head 1, first 2 tokens, recurrent")
      << 0 << 1 << QList<int>{2} << 2 << int(AttentionMethod::recurrent);
}

void TestAttentionProbe::aarenPrefixOutputsAreTheModelsAttention() {
  QFETCH(int, layer);
  QFETCH(int, head);
  QFETCH(QList<int>, dims);
  QFETCH(int, tokens);
  QFETCH(int, method);
  const LoadedForecastRun run = randomRun(ModelKind::aaren, 3);
  const std::vector<float> window = randomWindow(run.config.model, 4);
  const AttentionProbe probe =
      probe_attention(run, window, {layer, head, std::vector<int>(dims.begin(), dims.end()), tokens});

  const int n = int(probe.scores.size());
  const int dv = int(dims.size());
  QCOMPARE(n, tokens == 0 ? run.config.model.seq_len : tokens);
  std::vector<float> outputs(std::size_t(n) * std::size_t(dv));
  attend_prefixes<float>(outputs, probe.scores, probe.values, dv, {AttentionMethod(method)});
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < dv; ++j) {
      const float expected = modelAttention(run, window, layer, head, k, dims[j]);
      const float got = outputs[std::size_t(k) * std::size_t(dv) + std::size_t(j)];
      if (!close(got, expected))
        QFAIL(qPrintable(QStringLiteral("prefix %1, value dimension %2: scan gives %3, the model %4")
                             .arg(k)
                             .arg(dims[j])
                             .arg(double(got), 0, 'g', 9)
                             .arg(double(expected), 0, 'g', 9)));
    }
  for (int j = 0; j < dv; ++j)
    QVERIFY(close(probe.model_output[std::size_t(j)], modelAttention(run, window, layer, head, n - 1, dims[j])));
}

void TestAttentionProbe::transformerProbeIsTheLastTokensAttention_data() {
  QTest::addColumn<int>("tokens");
  QTest::newRow("whole window") << 0;
  QTest::newRow("first 5 tokens") << 5;
  QTest::newRow("first token only") << 1;
}

void TestAttentionProbe::transformerProbeIsTheLastTokensAttention() {
  QFETCH(int, tokens);
  const LoadedForecastRun run = randomRun(ModelKind::transformer, 5);
  const std::vector<float> window = randomWindow(run.config.model, 6);
  const std::vector<int> dims{1, 3};
  const AttentionProbe probe = probe_attention(run, window, {1, 2, dims, tokens});
  const int n = int(probe.scores.size());
  QCOMPARE(n, tokens == 0 ? run.config.model.seq_len : tokens);
  std::vector<float> output(dims.size());
  attend_one<float>(output, probe.scores, probe.values, int(dims.size()), {AttentionMethod::conventional});
  for (std::size_t j = 0; j < dims.size(); ++j) {
    const float expected = modelAttention(run, window, 1, 2, n - 1, dims[j]);
    QVERIFY2(close(output[j], expected), qPrintable(QStringLiteral("dimension %1: %2 vs the model's %3")
                                                         .arg(dims[j])
                                                         .arg(double(output[j]))
                                                         .arg(double(expected))));
    QVERIFY(close(probe.model_output[j], expected));
  }
}

void TestAttentionProbe::probeKeepsTheRequestedShape() {
  const LoadedForecastRun run = randomRun(ModelKind::aaren, 8);
  const AttentionProbe probe = probe_attention(run, randomWindow(run.config.model, 9), {1, 3, {2, 0}, 6});
  QCOMPARE(int(probe.kind), int(ModelKind::aaren));
  QCOMPARE(probe.layer, 1);
  QCOMPARE(probe.head, 3);
  QCOMPARE(probe.d_head, 4);
  QCOMPARE(probe.tokens, 6);
  QCOMPARE(probe.value_dims, (std::vector<int>{2, 0}));
  QCOMPARE(probe.scores.size(), std::size_t(6));
  QCOMPARE(probe.values.size(), std::size_t(12));
  QCOMPARE(probe.model_output.size(), std::size_t(2));
  // Scores of a trained-size model are O(1), never all equal (the keys differ by token).
  QVERIFY(std::adjacent_find(probe.scores.begin(), probe.scores.end(), std::not_equal_to<>()) != probe.scores.end());
}

void TestAttentionProbe::requestsThatDoNotFitAreRefused_data() {
  QTest::addColumn<int>("layer");
  QTest::addColumn<int>("head");
  QTest::addColumn<QList<int>>("dims");
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("windowRows");
  QTest::addColumn<QString>("message");
  QTest::newRow("layer") << 2 << 0 << QList<int>{0} << 0 << 11 << "layer 2 does not exist: the model has layers 0 to 1";
  QTest::newRow("negative head") << 0 << -1 << QList<int>{0} << 0 << 11 << "each layer has heads 0 to 3";
  QTest::newRow("no value dimension") << 0 << 0 << QList<int>{} << 0 << 11 << "choose 1 to 3 value dimensions, not 0";
  QTest::newRow("four value dimensions") << 0 << 0 << QList<int>{0, 1, 2, 3} << 0 << 11 << "not 4";
  QTest::newRow("value dimension") << 0 << 0 << QList<int>{4} << 0 << 11 << "each head has value dimensions 0 to 3";
  QTest::newRow("repeated dimension") << 0 << 0 << QList<int>{1, 1} << 0 << 11 << "value dimension 1 is chosen twice";
  QTest::newRow("too many tokens") << 0 << 0 << QList<int>{0} << 12 << 11 << "choose 1 to 11";
  QTest::newRow("short window") << 0 << 0 << QList<int>{0} << 0 << 10 << "the model reads 11 rows of 2 channels";
}

void TestAttentionProbe::requestsThatDoNotFitAreRefused() {
  QFETCH(int, layer);
  QFETCH(int, head);
  QFETCH(QList<int>, dims);
  QFETCH(int, tokens);
  QFETCH(int, windowRows);
  QFETCH(QString, message);
  const LoadedForecastRun run = randomRun(ModelKind::aaren, 10);
  std::vector<float> window = randomWindow(run.config.model, 11);
  window.resize(std::size_t(windowRows) * std::size_t(run.config.model.channels));
  try {
    probe_attention(run, window, {layer, head, std::vector<int>(dims.begin(), dims.end()), tokens});
    QFAIL("the request was accepted");
  } catch (const std::invalid_argument& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains(message), error.what());
  }
}

void TestAttentionProbe::scaledWindowCopiesRowsOrNamesTheRange() {
  Matrix<float> scaled(6, 2);
  for (std::size_t i = 0; i < scaled.data.size(); ++i) scaled.data[i] = float(i);
  QCOMPARE(scaled_window(scaled, 2, 3), (std::vector<float>{4, 5, 6, 7, 8, 9}));
  QCOMPARE(scaled_window(scaled, 3, 3).back(), 11.0f);
  try {
    scaled_window(scaled, 4, 3);
    QFAIL("a window past the end was accepted");
  } catch (const std::invalid_argument& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains("choose a first row from 0 to 3"), error.what());
  }
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scaled_window(scaled, 0, 7));
}

QTEST_GUILESS_MAIN(TestAttentionProbe)
#include "tst_attention_probe.moc"
