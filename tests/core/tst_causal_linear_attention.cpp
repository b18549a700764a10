// The linear Transformer's attention layer (core/nn/causal_linear_attention.hpp): its chunked
// forward equals the readable linear attention of core/attention on every head, whatever the chunk;
// its hand-written backward matches central finite differences in double for every input; float
// follows double; bad sizes are refused.
#include <QtTest>

#include <cmath>
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

}  // namespace

class TestCausalLinearAttention : public QObject {
  Q_OBJECT

 private slots:
  void forwardEqualsTheReference_data();
  void forwardEqualsTheReference();
  void backwardMatchesFiniteDifferences_data();
  void backwardMatchesFiniteDifferences();
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
  causal_linear_attention_forward(out.data(), den.data(), q.data(), k.data(), v.data(), L, C, H, chunk);
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

// L = sum(dout * out); every entry of q, k and v nudged both ways.
void TestCausalLinearAttention::backwardMatchesFiniteDifferences() {
  QFETCH(int, L);
  QFETCH(int, C);
  QFETCH(int, H);
  const std::size_t n = std::size_t(L) * std::size_t(C);
  std::vector<double> q = randomValues(n, 4), k = randomValues(n, 5), v = randomValues(n, 6);
  const std::vector<double> dout = randomValues(n, 7);
  std::vector<double> out(n), den(std::size_t(H) * std::size_t(L));
  auto loss = [&]() {
    causal_linear_attention_forward(out.data(), den.data(), q.data(), k.data(), v.data(), L, C, H, 3);
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) total += dout[i] * out[i];
    return total;
  };
  loss();
  std::vector<double> dq(n), dk(n), dv(n);
  causal_linear_attention_backward(dq.data(), dk.data(), dv.data(), dout.data(), q.data(), k.data(), v.data(), out.data(),
                                   den.data(), L, C, H);
  constexpr double kStep = 1e-6;
  double worst = 0;
  for (auto [input, gradient, name] : {std::tuple{&q, &dq, "q"}, std::tuple{&k, &dk, "k"}, std::tuple{&v, &dv, "v"}}) {
    for (std::size_t i = 0; i < n; ++i) {
      const double kept = (*input)[i];
      (*input)[i] = kept + kStep;
      const double up = loss();
      (*input)[i] = kept - kStep;
      const double down = loss();
      (*input)[i] = kept;
      const double numeric = (up - down) / (2 * kStep);
      const double error = std::abs(numeric - (*gradient)[i]) / std::max(1.0, std::abs(numeric));
      worst = std::max(worst, error);
      QVERIFY2(error < 1e-7, qPrintable(QStringLiteral("d%1[%2]: %3 by hand, %4 numerically").arg(name).arg(i).arg((*gradient)[i]).arg(numeric)));
    }
  }
  qInfo("worst relative error against finite differences: %.2g", worst);
}

void TestCausalLinearAttention::floatFollowsDouble() {
  constexpr int L = 200, C = 16, H = 4;
  const std::size_t n = std::size_t(L) * std::size_t(C);
  const std::vector<double> q = randomValues(n, 8), k = randomValues(n, 9), v = randomValues(n, 10);
  std::vector<double> out(n), den(std::size_t(H) * L);
  causal_linear_attention_forward(out.data(), den.data(), q.data(), k.data(), v.data(), L, C, H, 32);
  std::vector<float> qf(q.begin(), q.end()), kf(k.begin(), k.end()), vf(v.begin(), v.end()), outf(n), denf(std::size_t(H) * L);
  causal_linear_attention_forward(outf.data(), denf.data(), qf.data(), kf.data(), vf.data(), L, C, H, 32);
  for (std::size_t i = 0; i < n; ++i) QVERIFY2(std::abs(double(outf[i]) - out[i]) < 1e-5, qPrintable(QString::number(i)));
}

void TestCausalLinearAttention::badSizesAreRefused() {
  std::vector<double> buffer(64);
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, causal_linear_attention_forward(buffer.data(), buffer.data(), buffer.data(),
                                                                                   buffer.data(), buffer.data(), 2, 6, 4));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, causal_linear_attention_forward(buffer.data(), buffer.data(), buffer.data(),
                                                                                   buffer.data(), buffer.data(), 2, 4, 2, 0));
}

QTEST_MAIN(TestCausalLinearAttention)
#include "tst_causal_linear_attention.moc"
