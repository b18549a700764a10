// The Transformer mixer's attention core: the forward against a naive double-precision reference,
// causality, the gradients of q, k and v against central finite differences, float against
// double, and the KV-cached decode against the forward's last row.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/nn/causal_attention.hpp"
#include "support/numeric_comparison.hpp"

namespace {

constexpr double gradient_tolerance = 1e-6;
constexpr double float_tolerance = 1e-5;
constexpr double finite_difference_step = 1e-5;

struct AttentionCase {
  int L = 0, C = 0, H = 0;
  Buffer q, k, v;  // (L, C)
  Buffer dout;     // (L, C): the loss is sum(out * dout)
};

AttentionCase random_case(int L, int C, int H, unsigned seed, double input_scale = 1) {
  std::mt19937 rng(seed);
  AttentionCase a{L, C, H, {}, {}, {}, {}};
  a.q = random_buffer(rng, long(L) * C, -input_scale, input_scale);
  a.k = random_buffer(rng, long(L) * C, -input_scale, input_scale);
  a.v = random_buffer(rng, long(L) * C, -input_scale, input_scale);
  a.dout = random_buffer(rng, long(L) * C);
  return a;
}

struct AttentionResults {
  Buffer out, probs, dq, dk, dv;
};

template <class T>
AttentionResults run_attention(const AttentionCase& a) {
  const std::vector<T> q = as<T>(a.q), k = as<T>(a.k), v = as<T>(a.v), dout = as<T>(a.dout);
  const std::size_t n = q.size();
  std::vector<T> out(n), probs(std::size_t(a.H) * std::size_t(a.L) * std::size_t(a.L));
  aaren::causal_attention_forward(out.data(), probs.data(), q.data(), k.data(), v.data(), a.L, a.C, a.H);
  // Gradients are written, not accumulated: a NaN left anywhere fails every comparison.
  const T unset = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> dq(n, unset), dk(n, unset), dv(n, unset), dprobs_scratch(static_cast<std::size_t>(a.L));
  aaren::causal_attention_backward(dq.data(), dk.data(), dv.data(), dprobs_scratch.data(), dout.data(), q.data(),
                                   k.data(), v.data(), probs.data(), a.L, a.C, a.H);
  return {to_double(out), to_double(probs), to_double(dq), to_double(dk), to_double(dv)};
}

// Written out from the definition: the softmax weights (t + 1) of row t of head h, and the row's
// output in that head's columns of out_row (C).
void naive_head_row(const AttentionCase& a, int h, int t, Buffer& weights, double* out_row) {
  const int d_head = a.C / a.H;
  const double scale = 1 / std::sqrt(double(d_head));
  weights.clear();
  for (int j = 0; j <= t; ++j) {
    double s = 0;
    for (int d = 0; d < d_head; ++d)
      s += a.q[std::size_t(t * a.C + h * d_head + d)] * a.k[std::size_t(j * a.C + h * d_head + d)];
    weights.push_back(s * scale);
  }
  const double max_score = *std::max_element(weights.begin(), weights.end());
  double sum = 0;
  for (double& w : weights) sum += (w = std::exp(w - max_score));
  for (double& w : weights) w /= sum;
  for (int d = 0; d < d_head; ++d) {
    double o = 0;
    for (int j = 0; j <= t; ++j) o += weights[std::size_t(j)] * a.v[std::size_t(j * a.C + h * d_head + d)];
    out_row[h * d_head + d] = o;
  }
}

AttentionResults naive_attention(const AttentionCase& a) {
  AttentionResults r;
  r.out.assign(a.q.size(), 0.0);
  r.probs.assign(std::size_t(a.H) * std::size_t(a.L) * std::size_t(a.L), 0.0);
  Buffer weights;
  for (int h = 0; h < a.H; ++h)
    for (int t = 0; t < a.L; ++t) {
      naive_head_row(a, h, t, weights, r.out.data() + long(t) * a.C);
      std::copy(weights.begin(), weights.end(), r.probs.begin() + (long(h) * a.L + t) * a.L);
    }
  return r;
}

long double weighted_sum(const Buffer& out, const Buffer& weights) {
  long double sum = 0;
  for (std::size_t i = 0; i < out.size(); ++i) sum += (long double)out[i] * (long double)weights[i];
  return sum;
}

Buffer numerical_gradient(AttentionCase a, Buffer AttentionCase::*input) {
  Buffer& x = a.*input;
  Buffer gradient(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + finite_difference_step;
    const long double plus = weighted_sum(run_attention<double>(a).out, a.dout);
    x[i] = saved - finite_difference_step;
    const long double minus = weighted_sum(run_attention<double>(a).out, a.dout);
    x[i] = saved;
    gradient[i] = double((plus - minus) / (2 * finite_difference_step));
  }
  return gradient;
}

Buffer rows(const Buffer& matrix, int first, int count, int C) {
  return Buffer(matrix.begin() + long(first) * C, matrix.begin() + long(first + count) * C);
}

void add_shapes() {
  QTest::addColumn<int>("L");
  QTest::addColumn<int>("C");
  QTest::addColumn<int>("H");
  QTest::newRow("L=5 C=6 H=2") << 5 << 6 << 2;
  QTest::newRow("L=7 C=6 H=3") << 7 << 6 << 3;
  QTest::newRow("L=1 C=5 H=1") << 1 << 5 << 1;
  QTest::newRow("L=17 C=12 H=4") << 17 << 12 << 4;
}

}  // namespace

class TestCausalAttention : public QObject {
  Q_OBJECT

 private slots:
  void forward_matches_naive_reference_data() {
    add_shapes();
    QTest::newRow("L=150 C=12 H=4 (several blocks of cached rows)") << 150 << 12 << 4;
    QTest::newRow("L=70 C=36 H=18 (more heads than one group)") << 70 << 36 << 18;
  }

  void forward_matches_naive_reference() {
    QFETCH(int, L);
    QFETCH(int, C);
    QFETCH(int, H);
    const AttentionCase a = random_case(L, C, H, 21);
    const AttentionResults got = run_attention<double>(a);
    const AttentionResults expected = naive_attention(a);
    const Mismatch out = worst_relative_error(got.out, expected.out);
    QVERIFY2(out.error < 1e-12, describe("out", out, "forward", "naive").constData());
    const Mismatch probs = worst_relative_error(got.probs, expected.probs);
    QVERIFY2(probs.error < 1e-12, describe("probs", probs, "forward", "naive").constData());
  }

  // Scores in the thousands: exp overflows unless the row maximum is taken out first.
  void large_scores_stay_finite() {
    const AttentionCase a = random_case(9, 8, 2, 22, 40.0);
    const AttentionResults got = run_attention<double>(a);
    const AttentionResults expected = naive_attention(a);
    const Mismatch out = worst_relative_error(got.out, expected.out);
    QVERIFY2(out.error < 1e-12, describe("out", out, "forward", "naive").constData());
    const AttentionResults got_float = run_attention<float>(a);
    const Mismatch out_float = worst_error_relative_to_scale(got_float.out, expected.out);
    QVERIFY2(out_float.error < float_tolerance, describe("float out", out_float, "forward", "naive").constData());
  }

  void upper_triangle_of_probs_is_zero_and_rows_sum_to_one() {
    const AttentionCase a = random_case(6, 8, 2, 23);
    const AttentionResults got = run_attention<double>(a);
    for (int h = 0; h < a.H; ++h)
      for (int t = 0; t < a.L; ++t) {
        double sum = 0;
        for (int j = 0; j < a.L; ++j) {
          const double p = got.probs[std::size_t((h * a.L + t) * a.L + j)];
          if (j > t) QCOMPARE(p, 0.0);
          sum += p;
        }
        QVERIFY2(std::abs(sum - 1) < 1e-14, qPrintable(QString("head %1 row %2 sums to %3").arg(h).arg(t).arg(sum)));
      }
  }

  // Replacing every token after t leaves rows 0..t of the output and of the weights untouched.
  void rows_do_not_depend_on_later_tokens() {
    const AttentionCase a = random_case(9, 8, 2, 24);
    const AttentionResults original = run_attention<double>(a);
    std::mt19937 rng(25);
    for (int t = 0; t + 1 < a.L; ++t) {
      AttentionCase changed = a;
      for (Buffer* x : {&changed.q, &changed.k, &changed.v})
        for (std::size_t i = std::size_t(t + 1) * std::size_t(a.C); i < x->size(); ++i)
          (*x)[i] = random_buffer(rng, 1, -3, 3)[0];
      const AttentionResults after = run_attention<double>(changed);
      QCOMPARE(rows(after.out, 0, t + 1, a.C), rows(original.out, 0, t + 1, a.C));
      for (int h = 0; h < a.H; ++h)
        QCOMPARE(rows(after.probs, h * a.L, t + 1, a.L), rows(original.probs, h * a.L, t + 1, a.L));
      QVERIFY(rows(after.out, t + 1, 1, a.C) != rows(original.out, t + 1, 1, a.C));
    }
  }

  void gradients_data() { add_shapes(); }
  void gradients() {
    QFETCH(int, L);
    QFETCH(int, C);
    QFETCH(int, H);
    const AttentionCase a = random_case(L, C, H, 26);
    const AttentionResults analytic = run_attention<double>(a);
    const Mismatch dq = worst_relative_error(analytic.dq, numerical_gradient(a, &AttentionCase::q));
    QVERIFY2(dq.error < gradient_tolerance, describe("dq", dq, "analytic", "finite difference").constData());
    const Mismatch dk = worst_relative_error(analytic.dk, numerical_gradient(a, &AttentionCase::k));
    QVERIFY2(dk.error < gradient_tolerance, describe("dk", dk, "analytic", "finite difference").constData());
    const Mismatch dv = worst_relative_error(analytic.dv, numerical_gradient(a, &AttentionCase::v));
    QVERIFY2(dv.error < gradient_tolerance, describe("dv", dv, "analytic", "finite difference").constData());
  }

  void float_matches_double_data() { add_shapes(); }
  void float_matches_double() {
    QFETCH(int, L);
    QFETCH(int, C);
    QFETCH(int, H);
    const AttentionCase a = random_case(L, C, H, 27);
    const AttentionResults in_double = run_attention<double>(a);
    const AttentionResults in_float = run_attention<float>(a);
    const std::pair<const char*, Buffer AttentionResults::*> buffers[] = {
        {"out", &AttentionResults::out}, {"probs", &AttentionResults::probs}, {"dq", &AttentionResults::dq},
        {"dk", &AttentionResults::dk},   {"dv", &AttentionResults::dv}};
    for (const auto& [name, buffer] : buffers) {
      const Mismatch m = worst_error_relative_to_scale(in_float.*buffer, in_double.*buffer);
      QVERIFY2(m.error < float_tolerance, describe(name, m, "float", "double").constData());
    }
  }

  void decode_matches_forward_last_row_data() {
    QTest::addColumn<int>("L");
    QTest::addColumn<int>("H");
    for (int H : {1, 2, 4})
      for (int L : {1, 5, 17}) QTest::addRow("H=%d L=%d", H, L) << L << H;
  }

  // Decoding token t against a cache of tokens 0..t gives row t of the forward on that prefix, for
  // every prefix length, to the last bit: both go through the same per-row computation.
  void decode_matches_forward_last_row() {
    QFETCH(int, L);
    QFETCH(int, H);
    const int C = 12;
    const AttentionCase a = random_case(L, C, H, 28);
    const std::vector<float> q_float = as<float>(a.q), k_float = as<float>(a.k), v_float = as<float>(a.v);
    for (int n = 1; n <= L; ++n) {
      const AttentionCase prefix{n, C, H, rows(a.q, 0, n, C), rows(a.k, 0, n, C), rows(a.v, 0, n, C),
                                 rows(a.dout, 0, n, C)};
      Buffer decoded(static_cast<std::size_t>(C)), scores_scratch(static_cast<std::size_t>(n));
      aaren::causal_attention_decode(decoded.data(), scores_scratch.data(), a.q.data() + long(n - 1) * C,
                                     a.k.data(), a.v.data(), n, C, H);
      QCOMPARE(decoded, rows(run_attention<double>(prefix).out, n - 1, 1, C));

      std::vector<float> decoded_float(static_cast<std::size_t>(C)), scores_float(static_cast<std::size_t>(n));
      aaren::causal_attention_decode(decoded_float.data(), scores_float.data(), q_float.data() + long(n - 1) * C,
                                     k_float.data(), v_float.data(), n, C, H);
      QCOMPARE(to_double(decoded_float), rows(run_attention<float>(prefix).out, n - 1, 1, C));
    }
  }

  // A long cache crosses many blocks of rows, with the running max raised along the way, and more
  // heads than one group.
  void decode_of_a_long_cache_matches_naive_reference() {
    const int n = 1000, C = 40, H = 20;
    const AttentionCase a = random_case(n, C, H, 29, 2.0);
    Buffer expected(static_cast<std::size_t>(C)), weights;
    for (int h = 0; h < H; ++h) naive_head_row(a, h, n - 1, weights, expected.data());
    const double* q_last = a.q.data() + long(n - 1) * C;
    Buffer decoded(static_cast<std::size_t>(C)), scratch(static_cast<std::size_t>(n));
    aaren::causal_attention_decode(decoded.data(), scratch.data(), q_last, a.k.data(), a.v.data(), n, C, H);
    const Mismatch m = worst_relative_error(decoded, expected);
    QVERIFY2(m.error < 1e-12, describe("out", m, "decode", "naive").constData());

    const std::vector<float> q = as<float>(a.q), k = as<float>(a.k), v = as<float>(a.v);
    std::vector<float> decoded_float(static_cast<std::size_t>(C)), scratch_float(static_cast<std::size_t>(n));
    aaren::causal_attention_decode(decoded_float.data(), scratch_float.data(), q.data() + long(n - 1) * C, k.data(),
                                   v.data(), n, C, H);
    const Mismatch mf = worst_error_relative_to_scale(to_double(decoded_float), expected);
    QVERIFY2(mf.error < float_tolerance, describe("float out", mf, "decode", "naive").constData());
  }

  void rejects_heads_that_do_not_divide_the_width_data() {
    QTest::addColumn<int>("C");
    QTest::addColumn<int>("H");
    QTest::newRow("10 / 4") << 10 << 4;
    QTest::newRow("no heads") << 8 << 0;
  }
  void rejects_heads_that_do_not_divide_the_width() {
    QFETCH(int, C);
    QFETCH(int, H);
    const int L = 2;
    std::vector<double> x(std::size_t(L) * std::size_t(C), 0.5), out(x.size()), dq(x.size()), dk(x.size()),
        dv(x.size()), scratch(static_cast<std::size_t>(L)), probs(std::size_t(8) * L * L);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::causal_attention_forward(out.data(), probs.data(), x.data(),
                                                                                    x.data(), x.data(), L, C, H));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             aaren::causal_attention_backward(dq.data(), dk.data(), dv.data(), scratch.data(), x.data(),
                                                              x.data(), x.data(), x.data(), probs.data(), L, C, H));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::causal_attention_decode(out.data(), scratch.data(), x.data(),
                                                                                   x.data(), x.data(), L, C, H));
  }

  void decode_rejects_an_empty_cache() {
    const int C = 4;
    std::vector<double> x(static_cast<std::size_t>(C), 0.5), out(x.size()), scratch(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::causal_attention_decode(out.data(), scratch.data(), x.data(),
                                                                                   x.data(), x.data(), 0, C, 2));
  }
};

QTEST_GUILESS_MAIN(TestCausalAttention)
#include "tst_causal_attention.moc"
