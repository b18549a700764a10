// The float path of Aaren's scan (core/attention/prefix_attention.cpp, fold_token_compensated of
// core/scan/state.hpp) past the length where a plain float sum stops counting, and scores of -inf,
// which every form of the fold (the scan's, the streaming cell's, the GPU's step and scan) treats
// as a token of weight 0.
//
// The long case runs the fold the float path runs, on 2^25 synthetic tokens generated on the fly
// (no 2^25-token inputs are materialized); that this is the float path's fold is checked bit for bit
// on a shorter sequence.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "core/attention/prefix_attention.hpp"
#include "core/attention/recurrent_cell.hpp"
#include "core/scan/state.hpp"

namespace aaren {

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

std::vector<float> normal_floats(std::mt19937& rng, std::size_t n) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(n);
  for (float& value : x) value = normal(rng);
  return x;
}

}  // namespace

class TestScanPrecision : public QObject {
  Q_OBJECT

 private slots:
  // prefix_attention_forward<float> is fold_token_compensated token after token. Keys of one
  // dimension make each score a single product, the same whichever way a dot product sums; the
  // compiler may still fuse a multiply and an add differently in the two loops (one rounding
  // fewer), so the outputs agree to float rounding of the terms (values of size 1: 1e-6), not
  // bit for bit.
  void the_float_path_is_the_compensated_fold() {
    const int n = 3000, dv = 8;
    std::mt19937 rng(5);
    const std::vector<float> q = normal_floats(rng, 1), k = normal_floats(rng, std::size_t(n)),
                             v = normal_floats(rng, std::size_t(n) * dv);
    const float scale = 2.5f;
    std::vector<float> o(std::size_t(n) * dv), log_z(static_cast<std::size_t>(n));
    prefix_attention_forward<float>(o.data(), log_z.data(), q.data(), k.data(), v.data(), n, 1, dv, scale, 1, dv, dv);

    float m = kMinusInf, w[dv] = {}, w_carry[dv] = {};
    CompensatedSum<float> u;
    for (int i = 0; i < n; ++i) {
      fold_token_compensated(m, u, w, w_carry, scale * (q[0] * k[std::size_t(i)]), v.data() + std::size_t(i) * dv, dv);
      const float inv_u = 1.0f / u.value();
      for (int j = 0; j < dv; ++j) {
        const float got = o[std::size_t(i) * dv + std::size_t(j)], want = (w[j] + w_carry[j]) * inv_u;
        QVERIFY2(std::abs(got - want) <= 1e-6f,
                 qPrintable(QString("token %1, element %2: %3 against %4").arg(i).arg(j).arg(got).arg(want)));
      }
      QVERIFY(std::abs(log_z[std::size_t(i)] - (m + std::log(u.value()))) <= 1e-6f * (1.0f + std::abs(m)));
    }
  }

  // Through prefix_attention_forward<float> itself: a first value of 2^24, then 4095 values of 1, all
  // with score 0. A plain float w stays at 2^24 (each 1 is rounded away) and the last output would be
  // 4096; the compensated w keeps them all.
  void the_float_path_keeps_small_terms_beside_a_large_one() {
    const int n = 4096;
    const std::vector<float> q{1.0f}, k(static_cast<std::size_t>(n), 0.0f);
    std::vector<float> v(static_cast<std::size_t>(n), 1.0f), o(static_cast<std::size_t>(n));
    v[0] = 16777216.0f;
    prefix_attention_forward<float>(o.data(), nullptr, q.data(), k.data(), v.data(), n, 1, 1, 1.0f, 1, 1, 1);
    const double exact = (16777216.0 + (n - 1)) / n;
    QVERIFY2(std::abs(double(o.back()) - exact) <= 1e-3,
             qPrintable(QString("last output %1, exactly %2").arg(double(o.back()), 0, 'f', 5).arg(exact, 0, 'f', 5)));
  }

  // 1024 tokens of rising score (each one a new maximum, so the sums are rescaled 1023 times), then
  // 2^24 tokens of value 0 and 2^24 of value 1 at the last maximum, so that each adds exactly 1 to
  // u. A plain float u and w stop counting at 2^24 and give a mean near 1; the compensated sums count
  // every token and give the mean of the double-precision fold, near 1/2.
  void a_float_scan_counts_every_token_up_to_2_to_the_25() {
    const long rising = 1024, half = 1L << 24;
    const float zero = 0.0f, one = 1.0f;
    const double zero_d = 0.0, one_d = 1.0;
    float m = kMinusInf, w = 0.0f, w_carry = 0.0f, plain_m = kMinusInf, plain_u = 0.0f, plain_w = 0.0f;
    double exact_m = -std::numeric_limits<double>::infinity(), exact_u = 0, exact_w = 0;
    CompensatedSum<float> u;
    for (long i = 0; i < rising + 2 * half; ++i) {
      const float s = float(std::min(i, rising - 1)) * 1e-3f;
      const bool second_half = i >= rising + half;
      fold_token_compensated(m, u, &w, &w_carry, s, second_half ? &one : &zero, 1);
      fold_token(plain_m, plain_u, &plain_w, s, second_half ? &one : &zero, 1);
      fold_token(exact_m, exact_u, &exact_w, double(s), second_half ? &one_d : &zero_d, 1);
    }
    QVERIFY2(std::abs(double(u.value()) - exact_u) <= 1e-6 * exact_u,
             qPrintable(QString("u %1, exactly %2").arg(double(u.value()), 0, 'f', 1).arg(exact_u, 0, 'f', 1)));
    QCOMPARE(double(w + w_carry), std::ldexp(1.0, 24));
    const double mean = double((w + w_carry) / u.value());
    QVERIFY2(std::abs(mean - exact_w / exact_u) <= 1e-6,
             qPrintable(QString("mean %1, exactly %2").arg(mean).arg(exact_w / exact_u)));
    // The plain float sums lose the second half: the test would catch a fold that is not compensated.
    QVERIFY2(plain_w / plain_u > 0.99f, qPrintable(QString::number(double(plain_w / plain_u))));
  }

  // A score of -inf into an empty summary leaves it empty; the next token then starts it as if the
  // -inf token had not been there. Every form of the fold agrees.
  void minus_infinity_on_an_empty_summary_leaves_it_empty() {
    const float v0[2] = {3.0f, -1.0f}, v1[2] = {0.5f, 2.0f};
    float m = kMinusInf, u = 0.0f, w[2] = {0.0f, 0.0f};
    fold_token(m, u, w, kMinusInf, v0, 2);
    QCOMPARE(m, kMinusInf);
    QCOMPARE(u, 0.0f);
    QCOMPARE(w[0], 0.0f);
    QCOMPARE(w[1], 0.0f);
    fold_token(m, u, w, 1.5f, v1, 2);
    QCOMPARE(m, 1.5f);
    QCOMPARE(u, 1.0f);
    QCOMPARE(w[0], 0.5f);
    QCOMPARE(w[1], 2.0f);

    float cm = kMinusInf, cw[2] = {}, cw_carry[2] = {};
    CompensatedSum<float> cu;
    fold_token_compensated(cm, cu, cw, cw_carry, kMinusInf, v0, 2);
    QCOMPARE(cm, kMinusInf);
    QCOMPARE(cu.value(), 0.0f);
    fold_token_compensated(cm, cu, cw, cw_carry, 1.5f, v1, 2);
    QCOMPARE(cu.value(), 1.0f);
    QCOMPARE(cw[0] + cw_carry[0], 0.5f);
    QCOMPARE(cw[1] + cw_carry[1], 2.0f);

    RecurrentCell<float> cell(2);
    cell.update(kMinusInf, std::span<const float>(v0, 2));
    QCOMPARE(cell.c(), 0.0f);
    QCOMPARE(cell.m(), kMinusInf);
    cell.update(1.5f, std::span<const float>(v1, 2));
    std::vector<float> out(2);
    cell.write_output(out);
    QCOMPARE(out, (std::vector<float>{0.5f, 2.0f}));
  }

  // After a finite score, -inf is a token of weight 0: nothing changes.
  void minus_infinity_after_a_finite_score_adds_nothing() {
    const float v0[1] = {4.0f}, v1[1] = {-7.0f};
    float m = kMinusInf, u = 0.0f, w = 0.0f;
    fold_token(m, u, &w, 0.5f, v0, 1);
    fold_token(m, u, &w, kMinusInf, v1, 1);
    QCOMPARE(m, 0.5f);
    QCOMPARE(u, 1.0f);
    QCOMPARE(w, 4.0f);
  }

  // A NaN score is not mistaken for -inf: it poisons the summary, so the fault shows.
  void a_nan_score_still_poisons_the_summary() {
    const float v[1] = {1.0f};
    float m = kMinusInf, u = 0.0f, w = 0.0f;
    fold_token(m, u, &w, std::numeric_limits<float>::quiet_NaN(), v, 1);
    QVERIFY(std::isnan(u));
    RecurrentCell<float> cell(1);
    cell.update(std::numeric_limits<float>::quiet_NaN(), std::span<const float>(v, 1));
    QVERIFY(std::isnan(cell.c()));
  }

  // The scan over keys whose first score is -inf (an infinite key entry against a positive query):
  // every later output is the scan of the sequence without that token, in float and in double.
  void the_scan_drops_a_leading_minus_infinity_token() {
    const int n = 50, d = 4;
    std::mt19937 rng(9);
    std::vector<float> q = normal_floats(rng, d), k = normal_floats(rng, std::size_t(n) * d),
                       v = normal_floats(rng, std::size_t(n) * d);
    for (float& x : q) x = std::abs(x) + 0.1f;
    k[1] = kMinusInf;  // token 0: q.k = -inf
    std::vector<float> o(std::size_t(n) * d), rest(std::size_t(n - 1) * d);
    prefix_attention_forward<float>(o.data(), nullptr, q.data(), k.data(), v.data(), n, d, d, 0.5f, d, d, d);
    prefix_attention_forward<float>(rest.data(), nullptr, q.data(), k.data() + d, v.data() + d, n - 1, d, d, 0.5f,
                                    d, d, d);
    for (int i = 1; i < n; ++i)
      for (int j = 0; j < d; ++j)
        QCOMPARE(o[std::size_t(i) * d + std::size_t(j)], rest[std::size_t(i - 1) * d + std::size_t(j)]);
    // Token 0 alone has no finite score: its output is 0 / 0, as the GPU's step gives.
    QVERIFY(std::isnan(o[0]));

    const std::vector<double> qd(q.begin(), q.end()), kd(k.begin(), k.end()), vd(v.begin(), v.end());
    std::vector<double> od(std::size_t(n) * d);
    prefix_attention_forward<double>(od.data(), nullptr, qd.data(), kd.data(), vd.data(), n, d, d, 0.5, d, d, d);
    for (int i = 1; i < n; ++i)
      for (int j = 0; j < d; ++j)
        QVERIFY(std::abs(od[std::size_t(i) * d + std::size_t(j)] - double(o[std::size_t(i) * d + std::size_t(j)])) <
                1e-5);
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestScanPrecision)
#include "tst_scan_precision.moc"
