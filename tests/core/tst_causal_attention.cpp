// The Transformer mixer's attention core: the forward against a naive double-precision reference,
// causality, the gradients of q, k and v against central finite differences, float against
// double, the readable KV-cached decode against the forward's last row, and the streaming decode
// over a KvCache against all three.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/nn/causal_attention.hpp"
#include "core/nn/kv_cache.hpp"
#include "core/util/worker_pool.hpp"
#include "support/numeric_comparison.hpp"

namespace {

constexpr double gradient_tolerance = 1e-6;
constexpr double float_tolerance = 1e-5;
constexpr double finite_difference_step = 1e-5;
// The streaming decode against the references, as error relative to the output's scale (inputs in
// [-2, 2], so outputs too). Only the order of the sums differs, so the error is rounding: a score
// s is rounded to about |s| * 6e-8 in float (|s| reaches tens at d_head 40), which becomes a
// relative error of that size in its softmax weight, and the sums over up to 4097 tokens add about
// sqrt(N) * 6e-8; in double the same with 1e-16. Measured worst over the table: 3.4e-6 in float and
// 1.1e-14 in double. The bounds keep a margin of five and more, and still catch the weight of a
// single token among thousands gone wrong.
constexpr double decode_double_tolerance = 1e-12;
constexpr double decode_float_tolerance = 2e-5;

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
  std::vector<T> dq(n, unset), dk(n, unset), dv(n, unset),
      dprobs_scratch(static_cast<std::size_t>(aaren::causal_attention_scratch_size(a.L)));
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

// Every entry of a within tolerance times the largest magnitude of b.
bool closeRows(const Buffer& a, const Buffer& b, double tolerance) {
  if (a.size() != b.size()) return false;
  double largest = 0;
  for (const double x : b) largest = std::max(largest, std::abs(x));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > tolerance * largest) return false;
  return true;
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
  // every prefix length, to rounding: the forward multiplies matrices, the decode folds the row's
  // tokens into a running softmax (1e-13 in double, 1e-6 in float, of the row's largest value).
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
      QVERIFY2(closeRows(decoded, rows(run_attention<double>(prefix).out, n - 1, 1, C), 1e-13),
               qPrintable(QString::number(n)));

      std::vector<float> decoded_float(static_cast<std::size_t>(C)), scores_float(static_cast<std::size_t>(n));
      aaren::causal_attention_decode(decoded_float.data(), scores_float.data(), q_float.data() + long(n - 1) * C,
                                     k_float.data(), v_float.data(), n, C, H);
      QVERIFY2(closeRows(to_double(decoded_float), rows(run_attention<float>(prefix).out, n - 1, 1, C), 1e-6),
               qPrintable(QString::number(n)));
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

  void kv_cache_decode_matches_references_data() {
    QTest::addColumn<int>("N");
    QTest::addColumn<int>("C");
    QTest::addColumn<int>("H");
    QTest::addColumn<long>("chunk_tokens");  // 0: the cache's default of about a megabyte
    QTest::addColumn<bool>("split");         // split every step among two workers
    // N: one token, one short of a tile, one past a tile, one past 64 tiles; heads 1, 3 and 16 at
    // a narrow and a wide d_model (d_head from 1 to 40).
    const int shapes[][2] = {{1, 8}, {1, 40}, {3, 12}, {3, 96}, {16, 16}, {16, 128}};
    for (int N : {1, 63, 65, 4097})
      for (const auto& [H, C] : shapes) QTest::addRow("N=%d C=%d H=%d", N, C, H) << N << C << H << 0L << false;
    // Chunks of one and two tiles, so the reads cross many chunk borders.
    QTest::newRow("N=4097 C=96 H=3 chunks of 128") << 4097 << 96 << 3 << 128L << false;
    QTest::newRow("N=65 C=8 H=1 chunks of 64") << 65 << 8 << 1 << 64L << false;
    // Split among workers: ranges of tiles merged by the combine, across chunk borders too.
    QTest::newRow("N=65 C=40 H=1 split") << 65 << 40 << 1 << 0L << true;
    QTest::newRow("N=4097 C=96 H=3 split") << 4097 << 96 << 3 << 0L << true;
    QTest::newRow("N=4097 C=128 H=16 chunks of 128, split") << 4097 << 128 << 16 << 128L << true;
  }

  // Tokens are appended one at a time, as the stream does; at every prefix checked the streaming
  // decode is compared with the readable decode (bit for bit the forward's last row), with the
  // parallel forward itself where its (H, N, N) weights fit a test, and with a double-precision
  // reference written from the definition.
  void kv_cache_decode_matches_references() {
    QFETCH(int, N);
    QFETCH(int, C);
    QFETCH(int, H);
    QFETCH(long, chunk_tokens);
    QFETCH(bool, split);
    const AttentionCase a = random_case(N, C, H, 30, 2.0);
    const std::vector<float> q = as<float>(a.q), k = as<float>(a.k), v = as<float>(a.v);
    const bool with_forward = N <= 65;
    const AttentionResults forward = with_forward ? run_attention<float>(a) : AttentionResults{};
    aaren::WorkerPool pool(2);
    aaren::WorkerPool* workers = split ? &pool : nullptr;
    const std::size_t split_from = split ? 0 : aaren::decode_split_min_bytes;
    aaren::KvCache<float> cache(C, H, chunk_tokens);
    aaren::KvCache<double> cache_double(C, H, chunk_tokens);
    std::vector<float> partials, decoded(static_cast<std::size_t>(C)), reference(static_cast<std::size_t>(C)),
        scratch(static_cast<std::size_t>(N));
    std::vector<double> partials_double, decoded_double(static_cast<std::size_t>(C));
    Buffer expected(static_cast<std::size_t>(C)), weights;
    for (int n = 1; n <= N; ++n) {
      const long row = long(n - 1) * C;
      cache.append(k.data() + row, v.data() + row);
      cache_double.append(a.k.data() + row, a.v.data() + row);
      const bool checked = n <= 130 || n % aaren::kv_tile_tokens <= 1 || n % aaren::kv_tile_tokens == 63 || n == N;
      if (!checked) continue;
      const QByteArray at = "after " + QByteArray::number(n) + " tokens: ";
      aaren::causal_attention_decode(decoded.data(), q.data() + row, cache, partials, workers, split_from);
      aaren::causal_attention_decode(reference.data(), scratch.data(), q.data() + row, k.data(), v.data(), n, C, H);
      for (int h = 0; h < H; ++h) naive_head_row(a, h, n - 1, weights, expected.data());
      const Mismatch vs_readable = worst_error_relative_to_scale(to_double(decoded), to_double(reference));
      QVERIFY2(vs_readable.error < decode_float_tolerance,
               (at + describe("out", vs_readable, "streaming decode", "readable decode")).constData());
      const Mismatch vs_naive = worst_error_relative_to_scale(to_double(decoded), expected);
      QVERIFY2(vs_naive.error < decode_float_tolerance,
               (at + describe("out", vs_naive, "streaming decode", "naive")).constData());
      if (with_forward) {
        const Mismatch vs_forward = worst_error_relative_to_scale(to_double(decoded), rows(forward.out, n - 1, 1, C));
        QVERIFY2(vs_forward.error < decode_float_tolerance,
                 (at + describe("out", vs_forward, "streaming decode", "forward")).constData());
      }
      aaren::causal_attention_decode(decoded_double.data(), a.q.data() + row, cache_double, partials_double, workers,
                                     split_from);
      const Mismatch in_double = worst_error_relative_to_scale(decoded_double, expected);
      QVERIFY2(in_double.error < decode_double_tolerance,
               (at + describe("double out", in_double, "streaming decode", "naive")).constData());
    }
    QCOMPARE(cache.tokens(), long(N));
    QCOMPARE(cache.bytes_in_use(), 2 * std::size_t(N) * std::size_t(C) * sizeof(float));
  }

  // The ranges' states are merged in a fixed order, so which worker took which range never shows
  // in the result.
  void split_decode_gives_the_same_bits_every_time() {
    const int N = 3000, C = 48, H = 3;
    const AttentionCase a = random_case(N, C, H, 31, 2.0);
    const std::vector<float> q = as<float>(a.q), k = as<float>(a.k), v = as<float>(a.v);
    aaren::KvCache<float> cache(C, H, 256);
    for (int n = 0; n < N; ++n) cache.append(k.data() + long(n) * C, v.data() + long(n) * C);
    aaren::WorkerPool pool(2);
    std::vector<float> partials, first(static_cast<std::size_t>(C)), again(static_cast<std::size_t>(C));
    const float* q_last = q.data() + long(N - 1) * C;
    aaren::causal_attention_decode(first.data(), q_last, cache, partials, &pool, 0);
    for (int run = 0; run < 20; ++run) {
      aaren::causal_attention_decode(again.data(), q_last, cache, partials, &pool, 0);
      QVERIFY2(same_bits(again, first), qPrintable(QString("run %1 differs from the first").arg(run)));
    }
  }

  // A cleared cache reuses its tiles, whose slots still hold the old tokens: the new stream's
  // results equal a fresh cache's bit for bit, including the tokens of a part-filled tile.
  void cleared_cache_equals_a_fresh_one() {
    const int C = 12, H = 3;
    const AttentionCase old_tokens = random_case(300, C, H, 32, 2.0);
    const AttentionCase new_tokens = random_case(70, C, H, 33, 2.0);
    const std::vector<float> k_old = as<float>(old_tokens.k), v_old = as<float>(old_tokens.v);
    const std::vector<float> q = as<float>(new_tokens.q), k = as<float>(new_tokens.k), v = as<float>(new_tokens.v);
    aaren::KvCache<float> reused(C, H, 128), fresh(C, H, 128);
    for (int n = 0; n < 300; ++n) reused.append(k_old.data() + long(n) * C, v_old.data() + long(n) * C);
    reused.clear();
    QCOMPARE(reused.tokens(), 0L);
    std::vector<float> partials, from_reused(static_cast<std::size_t>(C)), from_fresh(static_cast<std::size_t>(C));
    for (int n = 0; n < 70; ++n) {
      reused.append(k.data() + long(n) * C, v.data() + long(n) * C);
      fresh.append(k.data() + long(n) * C, v.data() + long(n) * C);
      aaren::causal_attention_decode(from_reused.data(), q.data() + long(n) * C, reused, partials);
      aaren::causal_attention_decode(from_fresh.data(), q.data() + long(n) * C, fresh, partials);
      QVERIFY2(same_bits(from_reused, from_fresh), qPrintable(QString("after %1 tokens").arg(n + 1)));
    }
  }

  void kv_cache_rejects_heads_that_do_not_divide_the_width() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::KvCache<float>(10, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::KvCache<float>(8, 0));
  }

  void kv_cache_decode_rejects_an_empty_cache() {
    const aaren::KvCache<float> cache(8, 2);
    std::vector<float> q(8, 0.5f), out(8), partials;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             aaren::causal_attention_decode(out.data(), q.data(), cache, partials));
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
        dv(x.size()), scratch(static_cast<std::size_t>(aaren::causal_attention_scratch_size(L))),
        probs(std::size_t(8) * L * L);
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
