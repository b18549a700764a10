// The linear Transformer's attention layers (core/nn/causal_linear_attention.hpp): the chunked
// forward of phi(q), phi(k), v equals the readable linear attention of core/attention on every head,
// whatever the chunk; the hand-written backwards of it and of phi = elu + 1 match central finite
// differences in double for every input; float follows double; bad sizes are refused.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

#include "core/attention/feature_map.hpp"
#include "core/attention/linear_attention.hpp"
#include "core/nn/causal_linear_attention.hpp"

using namespace aaren;

namespace {

std::vector<double> randomValues(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> values(count);
  for (double& x : values) x = normal(engine);
  return values;
}

Matrix<double> headColumns(const std::vector<double>& x, int L, int C, int h, int dh) {
  Matrix<double> m(L, dh);
  for (int i = 0; i < L; ++i)
    for (int c = 0; c < dh; ++c) m(i, c) = x[std::size_t(i * C + h * dh + c)];
  return m;
}

std::vector<double> features(std::vector<double> x) {
  elu_plus_one_forward(x.data(), x.size());
  return x;
}

// Central differences of `loss` in every entry of `input`, against `gradient`.
template <class Loss>
double worstRelativeError(std::vector<double>& input, const std::vector<double>& gradient, Loss loss) {
  constexpr double kStep = 1e-6;
  double worst = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const double kept = input[i];
    input[i] = kept + kStep;
    const double up = loss();
    input[i] = kept - kStep;
    const double down = loss();
    input[i] = kept;
    const double numeric = (up - down) / (2 * kStep);
    worst = std::max(worst, std::abs(numeric - gradient[i]) / std::max(1.0, std::abs(numeric)));
  }
  return worst;
}

}  // namespace

class TestCausalLinearAttention : public QObject {
  Q_OBJECT

 private slots:
  void forwardEqualsTheReference_data();
  void forwardEqualsTheReference();
  void backwardMatchesFiniteDifferences_data();
  void backwardMatchesFiniteDifferences();
  void featureMapBackwardMatchesFiniteDifferences();
  void featureMapGivesTheSameBitsWhereverANumberSits();
  void floatFollowsDouble();
  void badSizesAreRefused();
};

void TestCausalLinearAttention::forwardEqualsTheReference_data() {
  QTest::addColumn<int>("L");
  QTest::addColumn<int>("C");
  QTest::addColumn<int>("H");
  QTest::addColumn<int>("chunk");
  QTest::newRow("13 tokens, 2 heads, chunk 4") << 13 << 6 << 2 << 4;
  QTest::newRow("13 tokens, chunk 1") << 13 << 6 << 3 << 1;
  QTest::newRow("one token") << 1 << 4 << 2 << 64;
  QTest::newRow("d_head 1") << 9 << 4 << 4 << 5;
  QTest::newRow("d_head 32, chunk 64 over 100") << 100 << 64 << 2 << 64;
}

void TestCausalLinearAttention::forwardEqualsTheReference() {
  QFETCH(int, L);
  QFETCH(int, C);
  QFETCH(int, H);
  QFETCH(int, chunk);
  const std::size_t n = std::size_t(L) * std::size_t(C);
  const std::vector<double> q = randomValues(n, 1), k = randomValues(n, 2), v = randomValues(n, 3);
  std::vector<double> out(n), den(std::size_t(H) * std::size_t(L));
  LinearAttentionScratch<double> scratch(C, H, chunk);
  causal_linear_attention_forward(out.data(), den.data(), scratch, features(q).data(), features(k).data(), v.data(),
                                  L, C, H);
  const int dh = C / H;
  const FeatureMap phi({}, dh);
  LinearAttentionOptions options;
  options.method = LinearAttentionMethod::parallel;
  for (int h = 0; h < H; ++h) {
    const Matrix<double> expected = linear_attention(phi.queries(headColumns(q, L, C, h, dh)), phi.keys(headColumns(k, L, C, h, dh)),
                                                     headColumns(v, L, C, h, dh), options);
    const Matrix<double> actual = headColumns(out, L, C, h, dh);
    for (std::size_t i = 0; i < actual.data.size(); ++i)
      QVERIFY2(std::abs(actual.data[i] - expected.data[i]) <= 1e-12,
               qPrintable(QStringLiteral("head %1, value %2: %3 against %4").arg(h).arg(i).arg(actual.data[i]).arg(expected.data[i])));
  }
}

void TestCausalLinearAttention::backwardMatchesFiniteDifferences_data() {
  QTest::addColumn<int>("L");
  QTest::addColumn<int>("C");
  QTest::addColumn<int>("H");
  QTest::newRow("7 tokens, 2 heads") << 7 << 6 << 2;
  QTest::newRow("one token") << 1 << 4 << 2;
  QTest::newRow("d_head 1") << 5 << 3 << 3;
}

// L = sum(dout * out); every entry of the features phi(q), phi(k) (positive) and of v nudged both ways.
void TestCausalLinearAttention::backwardMatchesFiniteDifferences() {
  QFETCH(int, L);
  QFETCH(int, C);
  QFETCH(int, H);
  const std::size_t n = std::size_t(L) * std::size_t(C);
  std::vector<double> phi_q = features(randomValues(n, 4)), phi_k = features(randomValues(n, 5)), v = randomValues(n, 6);
  const std::vector<double> dout = randomValues(n, 7);
  std::vector<double> out(n), den(std::size_t(H) * std::size_t(L));
  LinearAttentionScratch<double> scratch(C, H, 3);
  auto loss = [&]() {
    causal_linear_attention_forward(out.data(), den.data(), scratch, phi_q.data(), phi_k.data(), v.data(), L, C, H);
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) total += dout[i] * out[i];
    return total;
  };
  loss();
  std::vector<double> dq(n), dk(n), dv(n);
  causal_linear_attention_backward(dq.data(), dk.data(), dv.data(), scratch, dout.data(), phi_q.data(), phi_k.data(),
                                   v.data(), out.data(), den.data(), L, C, H);
  for (auto [input, gradient, name] : {std::tuple{&phi_q, &dq, "phi(q)"}, std::tuple{&phi_k, &dk, "phi(k)"}, std::tuple{&v, &dv, "v"}}) {
    const double worst = worstRelativeError(*input, *gradient, loss);
    QVERIFY2(worst < 1e-7, qPrintable(QStringLiteral("d%1: worst relative error %2 against finite differences").arg(name).arg(worst)));
  }
}

// L = sum(d * phi(x)), on both sides of the kink at 0 (far enough from it for the differences).
void TestCausalLinearAttention::featureMapBackwardMatchesFiniteDifferences() {
  std::vector<double> x = randomValues(40, 11);
  for (double& value : x)
    if (std::abs(value) < 1e-3) value = 0.5;
  const std::vector<double> d = randomValues(x.size(), 12);
  auto loss = [&]() {
    const std::vector<double> phi = features(x);
    double total = 0;
    for (std::size_t i = 0; i < x.size(); ++i) total += d[i] * phi[i];
    return total;
  };
  std::vector<double> dx = d;
  elu_plus_one_backward(dx.data(), features(x).data(), dx.size());
  const double worst = worstRelativeError(x, dx, loss);
  QVERIFY2(worst < 1e-8, qPrintable(QStringLiteral("worst relative error %1").arg(worst)));
}

// A stream maps one token's d numbers, a window its (L, C) rows: a number must map to the same
// bits in either, at any offset and in the padded last block, as the streaming tests compare
// exactly. Every value is also within two ulps of the definition with std::exp.
void TestCausalLinearAttention::featureMapGivesTheSameBitsWhereverANumberSits() {
  std::vector<float> values(37);
  std::mt19937 engine(3);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  for (float& x : values) x = normal(engine);
  std::vector<float> whole = values;
  elu_plus_one_forward(whole.data(), whole.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    float alone = values[i];
    elu_plus_one_forward(&alone, 1);
    QCOMPARE(alone, whole[i]);  // exact: QCOMPARE on floats is fuzzy, so also by bits
    QVERIFY(std::memcmp(&alone, &whole[i], sizeof(float)) == 0);
    std::vector<float> shifted(values.begin() + long(i), values.end());
    elu_plus_one_forward(shifted.data(), shifted.size());
    QVERIFY2(std::memcmp(&shifted.front(), &whole[i], sizeof(float)) == 0, qPrintable(QString::number(i)));
    const float defined = values[i] > 0 ? values[i] + 1 : std::exp(values[i]);
    QVERIFY2(std::abs(whole[i] - defined) <= 2 * std::numeric_limits<float>::epsilon() * defined,
             qPrintable(QStringLiteral("%1: %2, by definition %3").arg(values[i]).arg(whole[i]).arg(defined)));
  }
}

void TestCausalLinearAttention::floatFollowsDouble() {
  constexpr int L = 200, C = 16, H = 4;
  const std::size_t n = std::size_t(L) * std::size_t(C);
  const std::vector<double> q = features(randomValues(n, 8)), k = features(randomValues(n, 9)), v = randomValues(n, 10);
  std::vector<double> out(n), den(std::size_t(H) * L);
  LinearAttentionScratch<double> scratch(C, H, 32);
  causal_linear_attention_forward(out.data(), den.data(), scratch, q.data(), k.data(), v.data(), L, C, H);
  std::vector<float> qf(q.begin(), q.end()), kf(k.begin(), k.end()), vf(v.begin(), v.end()), outf(n), denf(std::size_t(H) * L);
  LinearAttentionScratch<float> scratchf(C, H, 32);
  causal_linear_attention_forward(outf.data(), denf.data(), scratchf, qf.data(), kf.data(), vf.data(), L, C, H);
  for (std::size_t i = 0; i < n; ++i) QVERIFY2(std::abs(double(outf[i]) - out[i]) < 1e-5, qPrintable(QString::number(i)));
}

void TestCausalLinearAttention::badSizesAreRefused() {
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LinearAttentionScratch<double>(6, 4, 8));  // 4 heads do not divide 6
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LinearAttentionScratch<double>(4, 2, 0));  // an empty chunk
  std::vector<double> buffer(64);
  LinearAttentionScratch<double> scratch(4, 2, 8);
  // Columns or heads other than the scratch's, and an empty sequence.
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, causal_linear_attention_forward(buffer.data(), buffer.data(), scratch, buffer.data(),
                                                                                   buffer.data(), buffer.data(), 2, 6, 2));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, causal_linear_attention_forward(buffer.data(), buffer.data(), scratch, buffer.data(),
                                                                                   buffer.data(), buffer.data(), 0, 4, 2));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                           causal_linear_attention_backward(buffer.data(), buffer.data(), buffer.data(), scratch, buffer.data(),
                                                            buffer.data(), buffer.data(), buffer.data(), buffer.data(),
                                                            buffer.data(), 2, 4, 4));
}

QTEST_MAIN(TestCausalLinearAttention)
#include "tst_causal_linear_attention.moc"
