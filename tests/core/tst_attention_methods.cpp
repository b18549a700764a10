// Every way of computing softmax attention (conventional, recurrent, block, the three scans, the
// fused prefix path) against a naive long double softmax written here, on random inputs drawn with
// a fixed seed, including scores that make a naive exp overflow or underflow.
//
// Error measure throughout: relative error = max_i |actual_i - reference_i| / max_i |reference_i|
// over one output block (every row and column of it), so it is scale-free and one bad entry shows.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/attention/methods.hpp"
#include "core/attention/multi_query.hpp"
#include "core/attention/prefix_attention.hpp"
#include "core/attention/recurrent_cell.hpp"

namespace aaren {

namespace {

using Real = long double;

template <class T>
constexpr double tolerance() {
  return std::is_same_v<T, double> ? 1e-12 : 1e-5;
}

// Outputs of every prefix (N, dv) and its log-normalizer log sum_{i<=k} exp(s_i) (N).
struct Reference {
  std::vector<Real> o;
  std::vector<Real> log_z;
};

// The textbook stable softmax, prefix by prefix: o_k = sum_{i<=k} exp(s_i - M_k) v_i / sum exp(s_i - M_k)
// with M_k the prefix's maximum. Partial sums are never rescaled: when the maximum grows they are
// recomputed from scratch, so nothing of the combine under test is reused here.
Reference reference_attention(const std::vector<Real>& s, const std::vector<Real>& v, int dv) {
  const std::size_t n = s.size();
  Reference ref{std::vector<Real>(n * std::size_t(dv)), std::vector<Real>(n)};
  Real m = -std::numeric_limits<Real>::infinity();
  Real u = 0;
  std::vector<Real> w(std::size_t(dv), 0);
  const auto add = [&](std::size_t i) {
    const Real p = std::exp(s[i] - m);
    u += p;
    for (int j = 0; j < dv; ++j) w[std::size_t(j)] += p * v[i * std::size_t(dv) + std::size_t(j)];
  };
  for (std::size_t k = 0; k < n; ++k) {
    if (s[k] > m) {
      m = s[k];
      u = 0;
      std::fill(w.begin(), w.end(), Real(0));
      for (std::size_t i = 0; i < k; ++i) add(i);
    }
    add(k);
    for (int j = 0; j < dv; ++j) ref.o[k * std::size_t(dv) + std::size_t(j)] = w[std::size_t(j)] / u;
    ref.log_z[k] = m + std::log(u);
  }
  return ref;
}

template <class T>
std::vector<Real> widen(std::span<const T> xs) {
  return std::vector<Real>(xs.begin(), xs.end());
}

// Scores scale * q.k_i from the very numbers the code under test received.
template <class T>
std::vector<Real> reference_scores(std::span<const T> q, const Matrix<T>& k, Real scale = 1) {
  std::vector<Real> s(std::size_t(k.rows));
  for (int i = 0; i < k.rows; ++i) {
    Real dot = 0;
    for (int j = 0; j < k.cols; ++j) dot += Real(q[std::size_t(j)]) * Real(k(i, j));
    s[std::size_t(i)] = scale * dot;
  }
  return s;
}

template <class T>
double relative_error(std::span<const T> actual, std::span<const Real> reference) {
  Real worst = 0;
  Real largest = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const Real difference = std::abs(Real(actual[i]) - reference[i]);
    worst = std::isnan(difference) ? std::numeric_limits<Real>::infinity() : std::max(worst, difference);
    largest = std::max(largest, std::abs(reference[i]));
  }
  return double(largest > 0 ? worst / largest : worst);
}

bool all_finite(std::span<const float> xs) {
  return std::all_of(xs.begin(), xs.end(), [](float x) { return std::isfinite(x); });
}
bool all_finite(std::span<const double> xs) {
  return std::all_of(xs.begin(), xs.end(), [](double x) { return std::isfinite(x); });
}

template <class T>
Matrix<T> random_matrix(int rows, int cols, std::mt19937& rng, double stddev = 1.0) {
  std::normal_distribution<double> normal(0.0, stddev);
  Matrix<T> m(rows, cols);
  for (T& x : m.data) x = T(normal(rng));
  return m;
}

template <class T>
std::vector<T> random_vector(std::size_t n, std::mt19937& rng, double mean, double stddev) {
  std::normal_distribution<double> normal(mean, stddev);
  std::vector<T> xs(n);
  for (T& x : xs) x = T(normal(rng));
  return xs;
}

struct MethodVariant {
  QString name;
  AttentionOptions options;
};

// Every method; the block method with block sizes 1, 7, N and N + 1 (larger than N).
std::vector<MethodVariant> method_variants(int n) {
  std::vector<MethodVariant> variants;
  for (AttentionMethod method : {AttentionMethod::conventional, AttentionMethod::recurrent, AttentionMethod::sequential,
                                 AttentionMethod::hillis_steele, AttentionMethod::brent_kung})
    variants.push_back({QString::fromUtf8(to_string(method).data(), qsizetype(to_string(method).size())),
                        AttentionOptions{method, 64}});
  std::vector<int> block_sizes{1, 7, n, n + 1};
  std::sort(block_sizes.begin(), block_sizes.end());
  block_sizes.erase(std::unique(block_sizes.begin(), block_sizes.end()), block_sizes.end());
  for (int b : block_sizes)
    variants.push_back({QStringLiteral("block(b=%1)").arg(b), AttentionOptions{AttentionMethod::block, b}});
  return variants;
}

const std::vector<int> kSizes{1, 2, 3, 7, 64, 1000, 4096};

QString describe(const MethodVariant& variant, const char* what, double error, double limit) {
  return QStringLiteral("%1, %2: relative error %3 (limit %4)")
      .arg(variant.name, QString::fromLatin1(what))
      .arg(error, 0, 'g', 3)
      .arg(limit, 0, 'g', 3);
}

// attend_one and attend_prefixes of one score vector against the reference, every method.
// Returns an empty string when all agree, else what disagreed most.
template <class T>
QString check_single_query(const std::vector<T>& s, const std::vector<T>& v, int dv) {
  const int n = int(s.size());
  const Reference ref = reference_attention(widen<T>(s), widen<T>(v), dv);
  const std::span<const Real> last(ref.o.data() + std::size_t(n - 1) * std::size_t(dv), std::size_t(dv));
  for (const MethodVariant& variant : method_variants(n)) {
    std::vector<T> one(static_cast<std::size_t>(dv));
    attend_one<T>(one, s, v, dv, variant.options);
    const double one_error = relative_error<T>(one, last);
    if (!(one_error < tolerance<T>())) return describe(variant, "attend_one", one_error, tolerance<T>());
    if (!supports_prefixes(variant.options.method)) continue;
    std::vector<T> all(std::size_t(n) * std::size_t(dv));
    attend_prefixes<T>(all, s, v, dv, variant.options);
    const double all_error = relative_error<T>(all, ref.o);
    if (!(all_error < tolerance<T>())) return describe(variant, "attend_prefixes", all_error, tolerance<T>());
  }
  return {};
}

template <class T>
QString check_single_query_random(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  for (int dv : {1, 3, 8}) {
    const std::vector<T> s = random_vector<T>(std::size_t(n), rng, 0.0, 3.0);
    const std::vector<T> v = random_vector<T>(std::size_t(n) * std::size_t(dv), rng, 0.0, 1.0);
    const QString failure = check_single_query<T>(s, v, dv);
    if (!failure.isEmpty()) return QStringLiteral("dv %1, ").arg(dv) + failure;
  }
  return {};
}

// attend_queries with H queries against the reference, one method, both output shapes.
template <class T>
QString check_several_queries(int n, const AttentionOptions& options, std::uint32_t seed) {
  std::mt19937 rng(seed);
  constexpr int kQueries = 3;
  for (auto [d, dv] : {std::pair{4, 3}, std::pair{16, 5}, std::pair{1, 7}}) {
    const Matrix<T> q = random_matrix<T>(kQueries, d, rng);
    const Matrix<T> k = random_matrix<T>(n, d, rng);
    const Matrix<T> v = random_matrix<T>(n, dv, rng);
    const QString shape = QStringLiteral("d %1, dv %2: ").arg(d).arg(dv);

    const Matrix<T> one = attend_queries(q, k, v, false, options);
    if (one.rows != kQueries || one.cols != dv)
      return shape + QStringLiteral("many-to-one output is %1 x %2").arg(one.rows).arg(one.cols);
    const bool prefixes = supports_prefixes(options.method);
    Matrix<T> all;
    if (prefixes) {
      all = attend_queries(q, k, v, true, options);
      if (all.rows != kQueries * n || all.cols != dv)
        return shape + QStringLiteral("prefix output is %1 x %2").arg(all.rows).arg(all.cols);
    }
    for (int h = 0; h < kQueries; ++h) {
      const Reference ref = reference_attention(reference_scores<T>(q.row(h), k), widen<T>(std::span<const T>(v.data)), dv);
      const std::span<const Real> last(ref.o.data() + std::size_t(n - 1) * std::size_t(dv), std::size_t(dv));
      const double one_error = relative_error<T>(one.row(h), last);
      if (!(one_error < tolerance<T>()))
        return shape + QStringLiteral("query %1, many-to-one: relative error %2").arg(h).arg(one_error, 0, 'g', 3);
      if (!prefixes) continue;
      const std::span<const T> rows(all.data.data() + std::size_t(h) * std::size_t(n) * std::size_t(dv),
                                    std::size_t(n) * std::size_t(dv));
      const double all_error = relative_error<T>(rows, ref.o);
      if (!(all_error < tolerance<T>()))
        return shape + QStringLiteral("query %1, prefixes: relative error %2").arg(h).arg(all_error, 0, 'g', 3);
    }
  }
  return {};
}

// prefix_attention_forward on rows that may be slices of wider matrices (ld > width); the padding
// of the output must stay untouched.
template <class T>
QString check_fused(int n, bool strided, std::uint32_t seed) {
  std::mt19937 rng(seed);
  constexpr T kUntouched = T(-12345.5);
  for (auto [d, dv] : {std::pair{8, 5}, std::pair{3, 11}}) {
    const int ld_k = strided ? d + 3 : d, ld_v = strided ? dv + 2 : dv, ld_o = strided ? dv + 4 : dv;
    const Matrix<T> q = random_matrix<T>(1, d, rng);
    const Matrix<T> k_wide = random_matrix<T>(n, ld_k, rng);
    const Matrix<T> v_wide = random_matrix<T>(n, ld_v, rng);
    const T scale = T(1) / std::sqrt(T(d));
    std::vector<T> o(std::size_t(n) * std::size_t(ld_o), kUntouched);
    std::vector<T> log_z(std::size_t(n), kUntouched);
    prefix_attention_forward<T>(o.data(), log_z.data(), q.data.data(), k_wide.data.data(), v_wide.data.data(), n, d,
                                dv, scale, ld_k, ld_v, ld_o);

    Matrix<T> k(n, d), v(n, dv);
    std::vector<T> o_dense(std::size_t(n) * std::size_t(dv));
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < d; ++j) k(i, j) = k_wide(i, j);
      for (int j = 0; j < dv; ++j) v(i, j) = v_wide(i, j);
      for (int j = 0; j < dv; ++j) o_dense[std::size_t(i * dv + j)] = o[std::size_t(i * ld_o + j)];
      for (int j = dv; j < ld_o; ++j)
        if (o[std::size_t(i * ld_o + j)] != kUntouched)
          return QStringLiteral("d %1, dv %2: padding of output row %3 was overwritten").arg(d).arg(dv).arg(i);
    }
    const Reference ref = reference_attention(reference_scores<T>(q.row(0), k, scale),
                                              widen<T>(std::span<const T>(v.data)), dv);
    const double o_error = relative_error<T>(o_dense, ref.o);
    if (!(o_error < tolerance<T>()))
      return QStringLiteral("d %1, dv %2: outputs, relative error %3").arg(d).arg(dv).arg(o_error, 0, 'g', 3);
    // log_z can be near 0, so its error is measured against max(1, max |log_z|).
    Real worst = 0, largest = 1;
    for (int i = 0; i < n; ++i) {
      worst = std::max(worst, std::abs(Real(log_z[std::size_t(i)]) - ref.log_z[std::size_t(i)]));
      largest = std::max(largest, std::abs(ref.log_z[std::size_t(i)]));
    }
    if (!(worst / largest < tolerance<T>()))
      return QStringLiteral("d %1, dv %2: log_z, relative error %3").arg(d).arg(dv).arg(double(worst / largest), 0, 'g', 3);
  }
  return {};
}

// Scores a naive exp cannot take: exp(1000) overflows in both precisions, exp(-200) underflows in
// float, exp(-1000) in double.
template <class T>
std::vector<T> extreme_scores(const QString& kind, int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<T> s(static_cast<std::size_t>(n));
  for (T& x : s) {
    const double r = unit(rng);
    if (kind == "near +1000") x = T(1000 + 4 * r);
    else if (kind == "below -200") x = T(-200 - 6 * r);
    else if (kind == "near -1000") x = T(-1000 - 6 * r);
    else x = T(-1000 + 2000 * r);  // "spread over +-1000"
  }
  return s;
}

template <class T>
QString check_extreme(const QString& kind, int n) {
  std::mt19937 rng(2024);
  const int dv = 3;
  const std::vector<T> s = extreme_scores<T>(kind, n, rng);
  const std::vector<T> v = random_vector<T>(std::size_t(n) * std::size_t(dv), rng, 0.0, 1.0);
  const Reference ref = reference_attention(widen<T>(s), widen<T>(v), dv);
  for (const MethodVariant& variant : method_variants(n)) {
    std::vector<T> one(static_cast<std::size_t>(dv));
    attend_one<T>(one, s, v, dv, variant.options);
    if (!all_finite(one)) return variant.name + QStringLiteral(", attend_one: not finite");
    if (!supports_prefixes(variant.options.method)) continue;
    std::vector<T> all(std::size_t(n) * std::size_t(dv));
    attend_prefixes<T>(all, s, v, dv, variant.options);
    if (!all_finite(all)) return variant.name + QStringLiteral(", attend_prefixes: not finite");
  }
  const QString failure = check_single_query<T>(s, v, dv);
  if (!failure.isEmpty()) return failure;

  // The fused path computes its own scores: q = e_0 and k_i = (s_i, noise) make q.k_i = s_i exactly.
  const int d = 3;
  std::vector<T> k(std::size_t(n) * std::size_t(d));
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int i = 0; i < n; ++i) {
    k[std::size_t(i * d)] = s[std::size_t(i)];
    for (int j = 1; j < d; ++j) k[std::size_t(i * d + j)] = T(normal(rng));
  }
  const std::vector<T> q{T(1), T(0), T(0)};
  std::vector<T> o(std::size_t(n) * std::size_t(dv));
  std::vector<T> log_z(static_cast<std::size_t>(n));
  prefix_attention_forward<T>(o.data(), log_z.data(), q.data(), k.data(), v.data(), n, d, dv, T(1), d, dv, dv);
  if (!all_finite(o) || !all_finite(log_z)) return QStringLiteral("prefix_attention_forward: not finite");
  const double error = relative_error<T>(o, ref.o);
  if (!(error < tolerance<T>()))
    return QStringLiteral("prefix_attention_forward: relative error %1").arg(error, 0, 'g', 3);
  return {};
}

}  // namespace

class TestAttentionMethods : public QObject {
  Q_OBJECT

 private slots:
  void single_query_matches_reference_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("n");
    for (const QString& precision : {QStringLiteral("double"), QStringLiteral("float")})
      for (int n : kSizes) QTest::addRow("%s/N=%d", qPrintable(precision), n) << precision << n;
  }

  // attend_one and attend_prefixes on scores given directly, every method, dv in {1, 3, 8}.
  void single_query_matches_reference() {
    QFETCH(QString, precision);
    QFETCH(int, n);
    const QString failure = precision == "double" ? check_single_query_random<double>(n, 7u + unsigned(n))
                                                  : check_single_query_random<float>(n, 7u + unsigned(n));
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
  }

  void several_queries_match_reference_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("method");
    QTest::addColumn<int>("block_size");
    for (const QString& precision : {QStringLiteral("double"), QStringLiteral("float")})
      for (int n : kSizes)
        for (const MethodVariant& variant : method_variants(n))
          QTest::addRow("%s/N=%d/%s", qPrintable(precision), n, qPrintable(variant.name))
              << precision << n << int(variant.options.method) << variant.options.block_size;
  }

  // attend_queries: 3 queries, (d, dv) in {(4, 3), (16, 5), (1, 7)}, scores q.k_i computed inside.
  void several_queries_match_reference() {
    QFETCH(QString, precision);
    QFETCH(int, n);
    QFETCH(int, method);
    QFETCH(int, block_size);
    const AttentionOptions options{AttentionMethod(method), block_size};
    const QString failure = precision == "double" ? check_several_queries<double>(n, options, 11u + unsigned(n))
                                                  : check_several_queries<float>(n, options, 11u + unsigned(n));
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
  }

  void fused_prefix_attention_matches_reference_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("strided");
    for (const QString& precision : {QStringLiteral("double"), QStringLiteral("float")})
      for (int n : kSizes)
        for (bool strided : {false, true})
          QTest::addRow("%s/N=%d/%s", qPrintable(precision), n, strided ? "strided" : "dense")
              << precision << n << strided;
  }

  void fused_prefix_attention_matches_reference() {
    QFETCH(QString, precision);
    QFETCH(int, n);
    QFETCH(bool, strided);
    const QString failure = precision == "double" ? check_fused<double>(n, strided, 5u + unsigned(n))
                                                  : check_fused<float>(n, strided, 5u + unsigned(n));
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
  }

  void extreme_scores_stay_finite_and_correct_data() {
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("n");
    for (const QString& precision : {QStringLiteral("double"), QStringLiteral("float")})
      for (const QString& kind : {QStringLiteral("near +1000"), QStringLiteral("below -200"), QStringLiteral("near -1000"),
                                  QStringLiteral("spread over +-1000")})
        for (int n : {1, 7, 300})
          QTest::addRow("%s/%s/N=%d", qPrintable(precision), qPrintable(kind), n) << precision << kind << n;
  }

  void extreme_scores_stay_finite_and_correct() {
    QFETCH(QString, precision);
    QFETCH(QString, kind);
    QFETCH(int, n);
    const QString failure = precision == "double" ? check_extreme<double>(kind, n) : check_extreme<float>(kind, n);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
  }

  // The paper prints m_0 = 0: with every score below -200, exp(s_k - 0) underflows to 0 in float32
  // and the output is 0/0. The default start m_0 = -inf gives the right answer.
  void recurrent_cell_paper_start_is_nan_in_float() {
    std::mt19937 rng(99);
    const int n = 50, dv = 4;
    const std::vector<float> s = extreme_scores<float>("below -200", n, rng);
    const std::vector<float> v = random_vector<float>(std::size_t(n) * std::size_t(dv), rng, 0.0, 1.0);
    RecurrentCell<float> paper(dv, 0.0f);
    RecurrentCell<float> corrected(dv);
    for (int i = 0; i < n; ++i) {
      const std::span<const float> vi(v.data() + std::size_t(i * dv), std::size_t(dv));
      paper.update(s[std::size_t(i)], vi);
      corrected.update(s[std::size_t(i)], vi);
    }
    std::vector<float> o_paper(static_cast<std::size_t>(dv)), o_corrected(static_cast<std::size_t>(dv));
    paper.write_output(o_paper);
    corrected.write_output(o_corrected);
    for (float x : o_paper) QVERIFY2(std::isnan(x), "m_0 = 0 should give 0/0 = NaN in float32 here");
    QCOMPARE(paper.c(), 0.0f);

    const Reference ref = reference_attention(widen<float>(s), widen<float>(v), dv);
    const std::span<const Real> last(ref.o.data() + std::size_t((n - 1) * dv), std::size_t(dv));
    const double error = relative_error<float>(o_corrected, last);
    QVERIFY2(error < tolerance<float>(), qPrintable(QStringLiteral("m_0 = -inf: relative error %1").arg(error)));
    QCOMPARE(double(corrected.m()), double(*std::max_element(s.begin(), s.end())));
  }

  void recurrent_trace_has_one_row_per_token_data() {
    QTest::addColumn<int>("n");
    for (int n : {1, 2, 7, 64}) QTest::addRow("N=%d", n) << n;
  }

  // a_k, c_k, m_k, o_k after each token: o_k = a_k / c_k, m_k the running maximum, o_k the prefix output.
  void recurrent_trace_has_one_row_per_token() {
    QFETCH(int, n);
    std::mt19937 rng(31u + unsigned(n));
    const int dv = 3;
    const std::vector<double> s = random_vector<double>(std::size_t(n), rng, 0.0, 3.0);
    const std::vector<double> v = random_vector<double>(std::size_t(n) * std::size_t(dv), rng, 0.0, 1.0);
    const Reference ref = reference_attention(widen<double>(s), widen<double>(v), dv);
    const AttentionOptions options{AttentionMethod::recurrent, 64};

    AttentionTrace<double> one_trace, all_trace;
    std::vector<double> one(static_cast<std::size_t>(dv)), all(static_cast<std::size_t>(n * dv));
    attend_one<double>(one, s, v, dv, options, &one_trace);
    attend_prefixes<double>(all, s, v, dv, options, &all_trace);
    for (const AttentionTrace<double>* trace : {&one_trace, &all_trace}) {
      QVERIFY(!trace->scan.has_value());
      QCOMPARE(int(trace->cell.size()), n);
      double running_max = -std::numeric_limits<double>::infinity();
      for (int k = 0; k < n; ++k) {
        const CellTraceRow<double>& row = trace->cell[std::size_t(k)];
        QCOMPARE(int(row.a.size()), dv);
        QCOMPARE(int(row.o.size()), dv);
        running_max = std::max(running_max, s[std::size_t(k)]);
        QCOMPARE(row.m, running_max);
        for (int j = 0; j < dv; ++j)
          QVERIFY2(std::abs(row.o[std::size_t(j)] - row.a[std::size_t(j)] / row.c) <= 1e-15 * std::abs(row.o[std::size_t(j)]),
                   qPrintable(QStringLiteral("token %1: o != a / c").arg(k)));
        const double error = relative_error<double>(
            row.o, std::span<const Real>(ref.o.data() + std::size_t(k * dv), std::size_t(dv)));
        QVERIFY2(error < 1e-12, qPrintable(QStringLiteral("token %1: o_k relative error %2").arg(k).arg(error)));
      }
    }
    QCOMPARE(one, all_trace.cell.back().o);
  }

  // attend_queries records one trace per query; a scan trace starts from that query's scores.
  void attend_queries_records_one_trace_per_query() {
    std::mt19937 rng(17);
    const Matrix<double> q = random_matrix<double>(3, 4, rng), k = random_matrix<double>(9, 4, rng),
                         v = random_matrix<double>(9, 2, rng);
    std::vector<AttentionTrace<double>> traces;
    attend_queries(q, k, v, true, AttentionOptions{AttentionMethod::brent_kung, 64}, &traces);
    QCOMPARE(int(traces.size()), 3);
    for (int h = 0; h < 3; ++h) {
      QVERIFY(traces[std::size_t(h)].scan.has_value());
      QCOMPARE(traces[std::size_t(h)].scan->method, ScanMethod::brent_kung);
      QCOMPARE(traces[std::size_t(h)].scan->initial.m, query_scores(q.row(h), k));
    }
  }

  void method_names_round_trip() {
    for (AttentionMethod method : {AttentionMethod::conventional, AttentionMethod::recurrent, AttentionMethod::block,
                                   AttentionMethod::sequential, AttentionMethod::hillis_steele, AttentionMethod::brent_kung}) {
      const auto parsed = attention_method_from_string(to_string(method));
      QVERIFY(parsed.has_value());
      QCOMPARE(*parsed, method);
      QVERIFY(attention_method_names().find(std::string(to_string(method))) != std::string::npos);
    }
    QVERIFY(!attention_method_from_string("hillis_steele").has_value());
    QVERIFY(!attention_method_from_string("").has_value());
    QVERIFY(!supports_prefixes(AttentionMethod::block));
  }

  void rejects_inputs_it_cannot_attend_over() {
    const std::vector<double> none, s{0.5, 1.5}, v{1, 2, 3, 4};
    std::vector<double> o(2), all(4);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attend_one<double>(o, none, none, 2, AttentionOptions{}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             attend_one<double>(o, s, std::span<const double>(v).first(3), 2, AttentionOptions{}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             attend_one<double>(o, s, v, 2, AttentionOptions{AttentionMethod::block, 0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             attend_prefixes<double>(all, s, v, 2, AttentionOptions{AttentionMethod::block, 4}));

    const Matrix<double> q(1, 3), k(2, 3), k_other_d(2, 4), v2(2, 2), v3(3, 2), empty(0, 3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, check_attention_shapes(q, k_other_d, v2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, check_attention_shapes(q, k, v3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, check_attention_shapes(q, empty, Matrix<double>(0, 2)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, check_attention_shapes(Matrix<double>(0, 3), k, v2));
    check_attention_shapes(q, k, v2);
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestAttentionMethods)
#include "tst_attention_methods.moc"
