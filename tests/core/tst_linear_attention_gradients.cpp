// The gradient of linear attention for every feature map (core/attention/linear_attention_backward.hpp
// and FeatureMap::backward): through elu + 1, relu and FAVOR+ (shifted as queries and keys, and
// unshifted), causal and not, the gradients of a loss with respect to the queries, keys and values
// match central finite differences in double; the model's chunked backward
// (core/nn/causal_linear_attention.hpp) equals the readable reference; bad shapes are refused.
#include <QtTest>

#include <cmath>
#include <random>
#include <stdexcept>

#include "core/attention/feature_map.hpp"
#include "core/attention/linear_attention.hpp"
#include "core/attention/linear_attention_backward.hpp"
#include "core/nn/causal_linear_attention.hpp"
#include "support/random_matrix.hpp"

using namespace aaren;

namespace {

// The features of the queries and keys as the attention uses them: shifted (FeatureMap::queries
// and keys) or exactly as defined (unshifted).
struct Features {
  const FeatureMap& map;
  bool shifted;
  Matrix<double> queries(const Matrix<double>& q) const { return shifted ? map.queries(q) : map.unshifted(q); }
  Matrix<double> keys(const Matrix<double>& k) const { return shifted ? map.keys(k) : map.unshifted(k); }
};

// The loss sum(R o Y) of the attention of (Q, K, V) through the features.
double loss(const Features& features, const Matrix<double>& q, const Matrix<double>& k, const Matrix<double>& v,
            const Matrix<double>& r, const LinearAttentionOptions& options) {
  const Matrix<double> y = linear_attention(features.queries(q), features.keys(k), v, options);
  double total = 0;
  for (std::size_t i = 0; i < y.data.size(); ++i) total += r.data[i] * y.data[i];
  return total;
}

// The largest difference between `gradient` and central differences of the loss in every entry of
// `input`, relative to the largest gradient entry (at least 1).
template <class Loss>
double worstError(Matrix<double>& input, const Matrix<double>& gradient, Loss lossOf) {
  constexpr double kStep = 1e-6;
  double worst = 0, scale = 1;
  for (const double g : gradient.data) scale = std::max(scale, std::abs(g));
  for (std::size_t i = 0; i < input.data.size(); ++i) {
    const double kept = input.data[i];
    input.data[i] = kept + kStep;
    const double up = lossOf();
    input.data[i] = kept - kStep;
    const double down = lossOf();
    input.data[i] = kept;
    worst = std::max(worst, std::abs((up - down) / (2 * kStep) - gradient.data[i]));
  }
  return worst / scale;
}

}  // namespace

class TestLinearAttentionGradients : public QObject {
  Q_OBJECT

 private slots:
  void gradientsMatchFiniteDifferencesForEveryFeatureMap_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("shifted");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<double>("eps");
    const int elu = int(FeatureMapKind::elu_plus_one), relu = int(FeatureMapKind::relu),
              favor = int(FeatureMapKind::favor);
    for (const bool causal : {true, false}) {
      const char* form = causal ? "causal" : "all tokens";
      QTest::addRow("elu1, %s", form) << elu << true << causal << kLinearAttentionEps;
      QTest::addRow("relu, %s", form) << relu << true << causal << kLinearAttentionEps;
      // The shifts cancel exactly in the ratio where eps is 0.
      QTest::addRow("favor shifted, %s, eps 0", form) << favor << true << causal << 0.0;
      QTest::addRow("favor unshifted, %s", form) << favor << false << causal << kLinearAttentionEps;
    }
  }

  void gradientsMatchFiniteDifferencesForEveryFeatureMap() {
    QFETCH(int, kind);
    QFETCH(bool, shifted);
    QFETCH(bool, causal);
    QFETCH(double, eps);
    constexpr int kTokens = 7, kQueries = 5, kDim = 3, kValueDim = 2;
    FeatureMapOptions mapOptions;
    mapOptions.kind = FeatureMapKind(kind);
    mapOptions.features = 8;  // FAVOR+: more features than dimensions, two orthogonal blocks
    mapOptions.seed = 11;
    const FeatureMap map(mapOptions, kDim);
    const Features features{map, shifted};
    LinearAttentionOptions options;
    options.causal = causal;
    options.eps = eps;
    options.method = LinearAttentionMethod::parallel;
    const int queries = causal ? kTokens : kQueries;
    Matrix<double> q = randomMatrix(queries, kDim, 1, 0.7), k = randomMatrix(kTokens, kDim, 2, 0.7),
                   v = randomMatrix(kTokens, kValueDim, 3);
    const Matrix<double> r = randomMatrix(queries, kValueDim, 4);

    const Matrix<double> phi_q = features.queries(q), phi_k = features.keys(k);
    const LinearAttentionGradients<double> g = linear_attention_backward(r, phi_q, phi_k, v, options);
    const Matrix<double> dq = map.backward(g.phi_q, q, phi_q), dk = map.backward(g.phi_k, k, phi_k);
    const auto lossNow = [&] { return loss(features, q, k, v, r, options); };
    const double errors[3] = {worstError(q, dq, lossNow), worstError(k, dk, lossNow), worstError(v, g.v, lossNow)};
    for (const double error : errors)
      QVERIFY2(error < 1e-7, qPrintable(QStringLiteral("dQ %1, dK %2, dV %3 off finite differences")
                                            .arg(errors[0])
                                            .arg(errors[1])
                                            .arg(errors[2])));
  }

  // The model's chunked backward, one head, against the readable reference: the same sums.
  void chunkedBackwardEqualsTheReference_data() {
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("chunk");
    QTest::newRow("37 tokens, chunks of 16") << 37 << 16;
    QTest::newRow("1 token") << 1 << 16;
    QTest::newRow("16 tokens, chunks of 5") << 16 << 5;
  }

  void chunkedBackwardEqualsTheReference() {
    QFETCH(int, tokens);
    QFETCH(int, chunk);
    constexpr int kDim = 6;
    Matrix<double> phi_q = randomMatrix(tokens, kDim, 5), phi_k = randomMatrix(tokens, kDim, 6);
    elu_plus_one_forward(phi_q.data.data(), phi_q.data.size());
    elu_plus_one_forward(phi_k.data.data(), phi_k.data.size());
    const Matrix<double> v = randomMatrix(tokens, kDim, 7), dy = randomMatrix(tokens, kDim, 8);

    LinearAttentionScratch<double> scratch(kDim, 1, chunk);
    Matrix<double> out(tokens, kDim), den(1, tokens), dphi_q(tokens, kDim), dphi_k(tokens, kDim), dv(tokens, kDim);
    causal_linear_attention_forward(out.data.data(), den.data.data(), scratch, phi_q.data.data(), phi_k.data.data(),
                                    v.data.data(), tokens, kDim, 1);
    causal_linear_attention_backward(dphi_q.data.data(), dphi_k.data.data(), dv.data.data(), scratch, dy.data.data(),
                                     phi_q.data.data(), phi_k.data.data(), v.data.data(), out.data.data(),
                                     den.data.data(), tokens, kDim, 1);
    const LinearAttentionGradients<double> reference = linear_attention_backward(dy, phi_q, phi_k, v, {});
    const std::pair<const Matrix<double>*, const Matrix<double>*> pairs[] = {
        {&dphi_q, &reference.phi_q}, {&dphi_k, &reference.phi_k}, {&dv, &reference.v}};
    for (const auto& [chunked, readable] : pairs)
      for (std::size_t i = 0; i < chunked->data.size(); ++i)
        QVERIFY2(std::abs(chunked->data[i] - readable->data[i]) <= 1e-12 * (1 + std::abs(readable->data[i])),
                 qPrintable(QStringLiteral("entry %1: %2 chunked, %3 readable")
                                .arg(i)
                                .arg(chunked->data[i])
                                .arg(readable->data[i])));
  }

  void badShapesAreRefused() {
    const FeatureMap map({}, 3);
    const Matrix<double> x = randomMatrix(4, 3, 1), phi = map.queries(x);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, map.backward(Matrix<double>(4, 2), x, phi));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, map.backward(Matrix<double>(3, 3), x, phi));
    const Matrix<double> v = randomMatrix(4, 2, 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linear_attention_backward(Matrix<double>(4, 3), phi, phi, v, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             linear_attention_backward(Matrix<double>(4, 2), phi, phi, randomMatrix(5, 2, 3), {}));
  }
};

QTEST_GUILESS_MAIN(TestLinearAttentionGradients)
#include "tst_linear_attention_gradients.moc"
