// Linear attention (core/attention/linear_attention.hpp, feature_map.hpp): the recurrent, parallel
// and chunked methods agree in double to 1e-12 for every feature map, causal and not, over odd
// lengths, a chunk that does not divide N, N = 1 and feature sizes 1 to 128; float stays within
// single precision of double over 2^24 tokens, where plain float sums would stall; FAVOR+ is an
// unbiased estimate of exp(q . k) whose error against softmax attention falls as M grows; bad
// input is refused with a message.
#include <QtTest>

#include <cmath>
#include <random>
#include <stdexcept>

#include "core/attention/feature_map.hpp"
#include "core/attention/linear_attention.hpp"
#include "support/random_matrix.hpp"

using namespace aaren;

namespace {

double largestDifference(const Matrix<double>& a, const Matrix<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) worst = std::max(worst, std::abs(a.data[i] - b.data[i]));
  return worst;
}

// Exact softmax attention, each query over all keys (or, causal, keys 0..i), in double.
Matrix<double> softmaxAttention(const Matrix<double>& q, const Matrix<double>& k, const Matrix<double>& v, bool causal) {
  Matrix<double> y(q.rows, v.cols);
  for (int i = 0; i < q.rows; ++i) {
    const int last = causal ? i : k.rows - 1;
    std::vector<double> scores;
    double largest = -INFINITY;
    for (int j = 0; j <= last; ++j) {
      double s = 0;
      for (int c = 0; c < q.cols; ++c) s += q(i, c) * k(j, c);
      scores.push_back(s);
      largest = std::max(largest, s);
    }
    double total = 0;
    for (int j = 0; j <= last; ++j) {
      const double w = std::exp(scores[std::size_t(j)] - largest);
      total += w;
      for (int c = 0; c < v.cols; ++c) y(i, c) += w * v(j, c);
    }
    for (int c = 0; c < v.cols; ++c) y(i, c) /= total;
  }
  return y;
}

double meanAbsoluteError(const Matrix<double>& a, const Matrix<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) sum += std::abs(a.data[i] - b.data[i]);
  return sum / double(a.data.size());
}

}  // namespace

class TestLinearAttention : public QObject {
  Q_OBJECT

 private slots:
  void theThreeMethodsAgree_data();
  void theThreeMethodsAgree();
  void floatFollowsDouble();
  void theStreamStaysAccurateOver2To24Tokens();
  void favorIsUnbiased_data();
  void favorIsUnbiased();
  void favorErrorFallsAsFeaturesGrow();
  void theStateIsConstant();
  void badInputIsRefused();
};

void TestLinearAttention::theThreeMethodsAgree_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("d");
  QTest::addColumn<int>("dv");
  QTest::addColumn<int>("chunk");
  QTest::addColumn<QString>("map");
  QTest::addColumn<bool>("causal");
  for (const QString& map : {QStringLiteral("elu1"), QStringLiteral("relu"), QStringLiteral("favor")})
    for (const bool causal : {true, false}) {
      const QString tail = QStringLiteral(" %1 %2").arg(map, causal ? QStringLiteral("causal") : QStringLiteral("all"));
      QTest::newRow(qPrintable(QStringLiteral("N=1") + tail)) << 1 << 4 << 3 << 64 << map << causal;
      QTest::newRow(qPrintable(QStringLiteral("N=37 chunk 8") + tail)) << 37 << 5 << 4 << 8 << map << causal;
      QTest::newRow(qPrintable(QStringLiteral("N=64 d=1") + tail)) << 64 << 1 << 1 << 16 << map << causal;
      QTest::newRow(qPrintable(QStringLiteral("N=50 d=128 chunk 7") + tail)) << 50 << 128 << 3 << 7 << map << causal;
      QTest::newRow(qPrintable(QStringLiteral("N=9 chunk 1") + tail)) << 9 << 3 << 2 << 1 << map << causal;
    }
}

void TestLinearAttention::theThreeMethodsAgree() {
  QFETCH(int, tokens);
  QFETCH(int, d);
  QFETCH(int, dv);
  QFETCH(int, chunk);
  QFETCH(QString, map);
  QFETCH(bool, causal);
  FeatureMapOptions features;
  features.kind = *feature_map_from_string(map.toStdString());
  features.features = 32;
  const FeatureMap phi(features, d);
  const double scale = 1.0 / std::sqrt(std::sqrt(double(d)));  // scores q.k / sqrt(d), as a layer scales them
  const Matrix<double> q = phi.queries(randomMatrix(tokens, d, 1, scale));
  const Matrix<double> k = phi.keys(randomMatrix(tokens, d, 2, scale));
  const Matrix<double> v = randomMatrix(tokens, dv, 3);
  LinearAttentionOptions options;
  options.causal = causal;
  options.chunk = chunk;
  options.method = LinearAttentionMethod::parallel;
  const Matrix<double> reference = linear_attention(q, k, v, options);
  QCOMPARE(reference.rows, tokens);
  for (const auto method : {LinearAttentionMethod::recurrent, LinearAttentionMethod::chunked}) {
    options.method = method;
    const double difference = largestDifference(linear_attention(q, k, v, options), reference);
    QVERIFY2(difference <= 1e-12, qPrintable(QStringLiteral("%1: %2").arg(QString::fromUtf8(to_string(method).data())).arg(difference)));
  }
}

void TestLinearAttention::floatFollowsDouble() {
  const FeatureMap phi({}, 16);
  const Matrix<double> q = phi.queries(randomMatrix(300, 16, 4, 0.5)), k = phi.keys(randomMatrix(300, 16, 5, 0.5));
  const Matrix<double> v = randomMatrix(300, 8, 6);
  LinearAttentionOptions options;
  options.chunk = 32;
  options.method = LinearAttentionMethod::parallel;
  const Matrix<double> reference = linear_attention(q, k, v, options);
  for (const auto method : {LinearAttentionMethod::recurrent, LinearAttentionMethod::parallel, LinearAttentionMethod::chunked}) {
    options.method = method;
    const Matrix<double> single = linear_attention(q.cast<float>(), k.cast<float>(), v.cast<float>(), options).cast<double>();
    QVERIFY2(largestDifference(single, reference) < 1e-5, to_string(method).data());
  }
}

// Plain float sums stop growing once the sum is 2^24 times the term: z would stall at 16.7 million
// ones. The compensated state keeps float within a few units of its last digit of double.
void TestLinearAttention::theStreamStaysAccurateOver2To24Tokens() {
  constexpr long kTokens = 1L << 24;
  LinearAttentionState<float> single(2, 1);
  LinearAttentionState<double> reference(2, 1);
  float yf = 0;
  double yd = 0;
  for (long i = 0; i < kTokens; ++i) {
    // Positive features as elu + 1 gives them, values that drift slowly.
    const double a = 1.0 + 0.5 * std::sin(0.001 * double(i)), b = 1.25 + 0.25 * std::cos(0.0007 * double(i));
    const double value = std::sin(1e-6 * double(i)) + 0.1 * std::cos(0.01 * double(i));
    const float kf[2] = {float(a), float(b)}, vf[1] = {float(value)};
    const double kd[2] = {double(kf[0]), double(kf[1])}, vd[1] = {double(vf[0])};
    single.add(kf, vf);
    reference.add(kd, vd);
  }
  const float qf[2] = {0.75f, 1.5f};
  const double qd[2] = {0.75, 1.5};
  single.read({&yf, 1}, qf);
  reference.read({&yd, 1}, qd);
  QCOMPARE(single.tokens(), kTokens);
  QVERIFY2(std::abs(double(yf) - yd) <= 1e-5 * std::max(1.0, std::abs(yd)),
           qPrintable(QStringLiteral("float %1, double %2").arg(double(yf), 0, 'g', 10).arg(yd, 0, 'g', 10)));

  // The chunked form carries its running sums across chunks the same way.
  constexpr int kChunkedTokens = 1 << 20;
  Matrix<double> ones(kChunkedTokens, 1), v(kChunkedTokens, 1), q(1, 1);
  for (int i = 0; i < kChunkedTokens; ++i) {
    ones(i, 0) = 1.0;
    v(i, 0) = double(float(std::sin(0.001 * i)));
  }
  q(0, 0) = 1.0;
  LinearAttentionOptions options;
  options.causal = false;
  options.chunk = 64;
  const double exact = linear_attention(q, ones, v, options)(0, 0);
  const double chunked = linear_attention(q.cast<float>(), ones.cast<float>(), v.cast<float>(), options)(0, 0);
  QVERIFY2(std::abs(chunked - exact) <= 1e-5 * std::max(1.0, std::abs(exact)),
           qPrintable(QStringLiteral("float %1, double %2").arg(chunked, 0, 'g', 10).arg(exact, 0, 'g', 10)));
}

void TestLinearAttention::favorIsUnbiased_data() {
  QTest::addColumn<bool>("orthogonal");
  QTest::newRow("independent directions") << false;
  QTest::newRow("orthogonal directions") << true;
}

// E[phi(q) . phi(k)] = exp(q . k): over many seeds the mean estimate lies within four standard
// errors of it.
void TestLinearAttention::favorIsUnbiased() {
  QFETCH(bool, orthogonal);
  constexpr int kDraws = 400, kD = 8;
  const Matrix<double> q = randomMatrix(1, kD, 11, 0.4), k = randomMatrix(1, kD, 12, 0.4);
  double exact = 0;
  for (int c = 0; c < kD; ++c) exact += q(0, c) * k(0, c);
  exact = std::exp(exact);
  double sum = 0, squares = 0;
  for (int draw = 0; draw < kDraws; ++draw) {
    FeatureMapOptions options;
    options.kind = FeatureMapKind::favor;
    options.features = 16;
    options.seed = std::uint64_t(100 + draw);
    options.orthogonal = orthogonal;
    const FeatureMap phi(options, kD);
    const Matrix<double> pq = phi.unshifted(q), pk = phi.unshifted(k);
    double estimate = 0;
    for (int j = 0; j < options.features; ++j) estimate += pq(0, j) * pk(0, j);
    sum += estimate;
    squares += estimate * estimate;
  }
  const double mean = sum / kDraws;
  const double standardError = std::sqrt((squares / kDraws - mean * mean) / kDraws);
  QVERIFY2(std::abs(mean - exact) <= 4 * standardError,
           qPrintable(QStringLiteral("mean %1, exp(q.k) %2, standard error %3").arg(mean).arg(exact).arg(standardError)));
}

// The error of FAVOR+ linear attention against exact softmax attention, averaged over seeds, falls
// at every step from M = 16 to 1024, and by at least a factor of 4 over the range (1/sqrt(M) gives
// 8). Queries and keys of moderate norm (|q|^2 about 0.5): the estimator's variance grows as
// exp(|q + k|^2), so with norms near 2 the same fall needs far more features.
void TestLinearAttention::favorErrorFallsAsFeaturesGrow() {
  constexpr int kTokens = 48, kD = 8, kSeeds = 6;
  const double scale = 0.25;
  const Matrix<double> q = randomMatrix(kTokens, kD, 21, scale), k = randomMatrix(kTokens, kD, 22, scale);
  const Matrix<double> v = randomMatrix(kTokens, 4, 23);
  for (const bool causal : {false, true}) {
    const Matrix<double> exact = softmaxAttention(q, k, v, causal);
    std::vector<double> errors;
    for (const int m : {16, 64, 256, 1024}) {
      double total = 0;
      for (int seed = 1; seed <= kSeeds; ++seed) {
        FeatureMapOptions options;
        options.kind = FeatureMapKind::favor;
        options.features = m;
        options.seed = std::uint64_t(seed);
        const FeatureMap phi(options, kD);
        LinearAttentionOptions attention;
        attention.causal = causal;
        total += meanAbsoluteError(linear_attention(phi.queries(q), phi.keys(k), v, attention), exact);
      }
      errors.push_back(total / kSeeds);
    }
    for (std::size_t i = 1; i < errors.size(); ++i)
      QVERIFY2(errors[i] < errors[i - 1], qPrintable(QStringLiteral("M step %1: %2 after %3").arg(i).arg(errors[i]).arg(errors[i - 1])));
    QVERIFY2(errors.back() * 4 < errors.front(), qPrintable(QStringLiteral("%1 at M = 1024, %2 at M = 16").arg(errors.back()).arg(errors.front())));
  }
}

void TestLinearAttention::theStateIsConstant() {
  LinearAttentionState<double> state(6, 4);
  const std::size_t numbers = state.state_numbers();
  QCOMPARE(numbers, std::size_t(6 * 4 + 6));
  const double k[6] = {1, 2, 3, 4, 5, 6}, v[4] = {1, 0, -1, 2};
  for (int i = 0; i < 10000; ++i) state.add(k, v);
  QCOMPARE(state.state_numbers(), numbers);
  QCOMPARE(state.tokens(), 10000L);
}

void TestLinearAttention::badInputIsRefused() {
  FeatureMapOptions favor;
  favor.kind = FeatureMapKind::favor;
  for (const int m : {0, -3}) {
    favor.features = m;
    try {
      FeatureMap(favor, 4);
      QFAIL("a FAVOR+ map of no features was accepted");
    } catch (const std::invalid_argument& error) {
      QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("at least 1 random feature")), error.what());
    }
  }
  QVERIFY(!feature_map_from_string("softplus"));
  QVERIFY(!linear_attention_method_from_string("quadratic"));
  const Matrix<double> q(5, 3), k(5, 3), v(4, 2), narrow(5, 2);
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linear_attention(q, k, v, {}));       // 5 keys, 4 values
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linear_attention(q, narrow, Matrix<double>(5, 2), {}));  // 3 and 2 features
  LinearAttentionOptions noChunk;
  noChunk.chunk = 0;
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linear_attention(q, k, Matrix<double>(5, 2), noChunk));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linear_attention(Matrix<double>(2, 3), k, Matrix<double>(5, 2), {}));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FeatureMap({}, 4).queries(Matrix<double>(2, 3)));
}

QTEST_MAIN(TestLinearAttention)
#include "tst_linear_attention.moc"
