// The O(N d) backward of many-to-many attention (prefix_softmax_backward) against central finite
// differences of the forward (prefix_attention_forward) in double precision, for the scores and
// values directly and, through s_i = scale q.k_i, for the query and the keys.
//
// The loss is L = sum_k g_k . o_k with a fixed random g, so dL/dO = g. Error measure:
// relative error = max_i |analytic_i - numeric_i| / max_i |numeric_i| over one gradient.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "core/attention/prefix_attention.hpp"

namespace aaren {

namespace {

constexpr double kStep = 0x1p-13;  // about 1.2e-4

// Row-major (rows, cols) numbers inside rows of ld >= cols; the padding holds a sentinel that
// the code under test must leave alone.
template <class T>
struct Strided {
  int rows, cols, ld;
  std::vector<T> data;
  Strided(int rows_, int cols_, int ld_, T fill)
      : rows(rows_), cols(cols_), ld(ld_), data(std::size_t(rows_) * std::size_t(ld_), fill) {}
  T& at(int i, int j) { return data[std::size_t(i) * std::size_t(ld) + std::size_t(j)]; }
  T at(int i, int j) const { return data[std::size_t(i) * std::size_t(ld) + std::size_t(j)]; }
};

constexpr double kPadding = 777.25;

template <class T>
bool padding_untouched(const Strided<T>& m) {
  for (int i = 0; i < m.rows; ++i)
    for (int j = m.cols; j < m.ld; ++j)
      if (m.at(i, j) != T(kPadding)) return false;
  return true;
}

struct Problem {
  int n = 0, d = 0, dv = 0;
  double scale = 1;
  std::vector<double> q;       // (d)
  std::vector<double> k;       // (N, d)
  std::vector<double> v;       // (N, dv)
  std::vector<double> g;       // (N, dv): dL/dO
  std::vector<double> scores;  // (N): scale * q.k_i
};

// Keys are drawn so that the scores come out as offset + spread * N(0, 1) (up to the projection).
Problem random_problem(int n, double offset, double spread, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Problem p;
  p.n = n;
  p.d = 4;
  p.dv = 3;
  p.scale = 1 / std::sqrt(double(p.d));
  p.q = {1.0, 0.0, 0.0, 0.0};
  for (int j = 1; j < p.d; ++j) p.q[std::size_t(j)] = 0.5 * normal(rng);
  for (int i = 0; i < n; ++i) {
    p.k.push_back((offset + spread * normal(rng)) / p.scale);
    for (int j = 1; j < p.d; ++j) p.k.push_back(normal(rng));
  }
  for (int i = 0; i < n * p.dv; ++i) p.v.push_back(normal(rng));
  for (int i = 0; i < n * p.dv; ++i) p.g.push_back(normal(rng));
  for (int i = 0; i < n; ++i) {
    double dot = 0;
    for (int j = 0; j < p.d; ++j) dot += p.q[std::size_t(j)] * p.k[std::size_t(i * p.d + j)];
    p.scores.push_back(p.scale * dot);
  }
  return p;
}

struct Forward {
  std::vector<double> o;      // (N, dv)
  std::vector<double> log_z;  // (N)
};

Forward forward(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v, int n,
                int d, int dv, double scale) {
  Forward f{std::vector<double>(std::size_t(n) * std::size_t(dv)), std::vector<double>(std::size_t(n))};
  prefix_attention_forward<double>(f.o.data(), f.log_z.data(), q.data(), k.data(), v.data(), n, d, dv, scale, d, dv, dv);
  return f;
}

// The forward as a function of the scores themselves: d = 1, q = 1, k_i = s_i, scale 1 gives
// exactly s_i.
Forward forward_of_scores(const std::vector<double>& s, const std::vector<double>& v, int dv) {
  return forward({1.0}, s, v, int(s.size()), 1, dv, 1.0);
}

double loss(const std::vector<double>& o, const std::vector<double>& g) {
  double total = 0;
  for (std::size_t i = 0; i < o.size(); ++i) total += g[i] * o[i];
  return total;
}

// Fourth-order central differences of f with respect to every entry of x:
//   (8 (f(x + h) - f(x - h)) - (f(x + 2h) - f(x - 2h))) / 12h,
// truncation error O(h^4). The step is a power of two, so x +- h and x +- 2h are exact for the
// magnitudes used here and the step divided by is the step taken.
std::vector<double> numeric_gradient(std::vector<double> x, const std::function<double(const std::vector<double>&)>& f) {
  std::vector<double> gradient(x.size());
  const auto f_at = [&](std::size_t i, double value) {
    const double original = x[i];
    x[i] = value;
    const double result = f(x);
    x[i] = original;
    return result;
  };
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double near = f_at(i, x[i] + kStep) - f_at(i, x[i] - kStep);
    const double far = f_at(i, x[i] + 2 * kStep) - f_at(i, x[i] - 2 * kStep);
    gradient[i] = (8 * near - far) / (12 * kStep);
  }
  return gradient;
}

double relative_error(const std::vector<double>& analytic, const std::vector<double>& numeric) {
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < numeric.size(); ++i) {
    const double difference = std::abs(analytic[i] - numeric[i]);
    worst = std::isnan(difference) ? std::numeric_limits<double>::infinity() : std::max(worst, difference);
    largest = std::max(largest, std::abs(numeric[i]));
  }
  return largest > 0 ? worst / largest : worst;
}

struct Backward {
  std::vector<double> ds;  // (N)
  std::vector<double> dv;  // (N, dv)
  bool padding_untouched = true;
};

// Runs the backward with every row strided (ld = width + a few) and the outputs pre-filled with
// NaN, so a backward that accumulates into them or writes past a row is caught.
template <class T>
Backward backward(const std::vector<double>& scores, const std::vector<double>& v, const Forward& f,
                  const std::vector<double>& g, int n, int dv) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  Strided<T> vs(n, dv, dv + 2, T(kPadding)), os(n, dv, dv + 1, T(kPadding)), gs(n, dv, dv + 3, T(kPadding)),
      dvs(n, dv, dv + 4, T(kPadding));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < dv; ++j) {
      const std::size_t at = std::size_t(i * dv + j);
      vs.at(i, j) = T(v[at]);
      os.at(i, j) = T(f.o[at]);
      gs.at(i, j) = T(g[at]);
      dvs.at(i, j) = nan;
    }
  std::vector<T> s(scores.begin(), scores.end()), log_z(f.log_z.begin(), f.log_z.end());
  std::vector<T> ds(std::size_t(n), nan), scratch(std::size_t(dv), nan);
  prefix_softmax_backward<T>(ds.data(), dvs.data.data(), gs.data.data(), s.data(), vs.data.data(), os.data.data(),
                             log_z.data(), scratch.data(), n, dv, vs.ld, os.ld, gs.ld, dvs.ld);
  Backward b{std::vector<double>(ds.begin(), ds.end()), std::vector<double>(std::size_t(n) * std::size_t(dv)),
             padding_untouched(dvs)};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < dv; ++j) b.dv[std::size_t(i * dv + j)] = double(dvs.at(i, j));
  return b;
}

}  // namespace

class TestPrefixBackward : public QObject {
  Q_OBJECT

 private:
  static void add_cases() {
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("offset");
    QTest::addColumn<double>("spread");
    for (int n : {1, 2, 3, 7, 64, 200})
      for (double spread : {1.0, 6.0}) QTest::addRow("N=%d/spread %g", n, spread) << n << 0.0 << spread;
    // Scores whose exp overflows (+1000) or underflows (-1000) in double: the backward works from
    // log_z, so it must not care.
    for (double offset : {1000.0, -1000.0})
      QTest::addRow("N=64/offset %g", offset) << 64 << offset << 2.0;
  }

 private slots:
  void gradients_of_scores_and_values_data() { add_cases(); }

  void gradients_of_scores_and_values() {
    QFETCH(int, n);
    QFETCH(double, offset);
    QFETCH(double, spread);
    const Problem p = random_problem(n, offset, spread, 100u + unsigned(n));
    const Forward f = forward_of_scores(p.scores, p.v, p.dv);
    const Backward b = backward<double>(p.scores, p.v, f, p.g, n, p.dv);
    QVERIFY2(b.padding_untouched, "the backward wrote into the padding of a strided dV row");

    const std::vector<double> numeric_ds = numeric_gradient(
        p.scores, [&](const std::vector<double>& s) { return loss(forward_of_scores(s, p.v, p.dv).o, p.g); });
    const std::vector<double> numeric_dv = numeric_gradient(
        p.v, [&](const std::vector<double>& v) { return loss(forward_of_scores(p.scores, v, p.dv).o, p.g); });
    const double ds_error = relative_error(b.ds, numeric_ds), dv_error = relative_error(b.dv, numeric_dv);
    QVERIFY2(ds_error < 1e-7, qPrintable(QStringLiteral("dL/ds: relative error %1").arg(ds_error)));
    QVERIFY2(dv_error < 1e-7, qPrintable(QStringLiteral("dL/dV: relative error %1").arg(dv_error)));
  }

  void gradients_of_query_and_keys_data() { add_cases(); }

  // dL/dq = scale sum_i ds_i k_i and dL/dk_i = scale ds_i q, checked against finite differences
  // of the full forward with its own score computation.
  void gradients_of_query_and_keys() {
    QFETCH(int, n);
    QFETCH(double, offset);
    QFETCH(double, spread);
    const Problem p = random_problem(n, offset, spread, 200u + unsigned(n));
    const Forward f = forward(p.q, p.k, p.v, n, p.d, p.dv, p.scale);
    const Backward b = backward<double>(p.scores, p.v, f, p.g, n, p.dv);

    std::vector<double> dq(std::size_t(p.d), 0.0), dk(p.k.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < p.d; ++j) {
        dq[std::size_t(j)] += p.scale * b.ds[std::size_t(i)] * p.k[std::size_t(i * p.d + j)];
        dk[std::size_t(i * p.d + j)] = p.scale * b.ds[std::size_t(i)] * p.q[std::size_t(j)];
      }
    const auto loss_of = [&](const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v) {
      return loss(forward(q, k, v, n, p.d, p.dv, p.scale).o, p.g);
    };
    const std::vector<double> numeric_dq =
        numeric_gradient(p.q, [&](const std::vector<double>& q) { return loss_of(q, p.k, p.v); });
    const std::vector<double> numeric_dk =
        numeric_gradient(p.k, [&](const std::vector<double>& k) { return loss_of(p.q, k, p.v); });
    const std::vector<double> numeric_dv =
        numeric_gradient(p.v, [&](const std::vector<double>& v) { return loss_of(p.q, p.k, v); });
    const double dq_error = relative_error(dq, numeric_dq), dk_error = relative_error(dk, numeric_dk),
                 dv_error = relative_error(b.dv, numeric_dv);
    QVERIFY2(dq_error < 1e-7, qPrintable(QStringLiteral("dL/dq: relative error %1").arg(dq_error)));
    QVERIFY2(dk_error < 1e-7, qPrintable(QStringLiteral("dL/dK: relative error %1").arg(dk_error)));
    QVERIFY2(dv_error < 1e-7, qPrintable(QStringLiteral("dL/dV: relative error %1").arg(dv_error)));
  }

  void float_backward_agrees_with_double_data() {
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("offset");
    for (int n : {1, 7, 64, 1000}) QTest::addRow("N=%d", n) << n << 0.0;
    // exp(+-100) overflows and underflows in float.
    QTest::addRow("N=64/offset -100") << 64 << -100.0;
    QTest::addRow("N=64/offset +100") << 64 << 100.0;
  }

  // Same float-representable inputs, forward and backward in float and in double; the float
  // gradients stay finite and within 1e-4 (relative, as above) of the double ones.
  void float_backward_agrees_with_double() {
    QFETCH(int, n);
    QFETCH(double, offset);
    Problem p = random_problem(n, offset, 3.0, 300u + unsigned(n));
    for (double& x : p.scores) x = double(float(x));
    for (double& x : p.v) x = double(float(x));
    for (double& x : p.g) x = double(float(x));
    const std::vector<float> s32(p.scores.begin(), p.scores.end()), v32(p.v.begin(), p.v.end());
    std::vector<float> o32(p.v.size()), log_z32(static_cast<std::size_t>(n));
    const float one = 1.0f;
    prefix_attention_forward<float>(o32.data(), log_z32.data(), &one, s32.data(), v32.data(), n, 1, p.dv, 1.0f, 1,
                                    p.dv, p.dv);
    const Forward f32{std::vector<double>(o32.begin(), o32.end()), std::vector<double>(log_z32.begin(), log_z32.end())};
    const Backward b32 = backward<float>(p.scores, p.v, f32, p.g, n, p.dv);
    const Backward b64 = backward<double>(p.scores, p.v, forward_of_scores(p.scores, p.v, p.dv), p.g, n, p.dv);
    const auto finite = [](const std::vector<double>& xs) {
      return std::all_of(xs.begin(), xs.end(), [](double x) { return std::isfinite(x); });
    };
    QVERIFY(finite(b32.ds) && finite(b32.dv));
    const double ds_error = relative_error(b32.ds, b64.ds), dv_error = relative_error(b32.dv, b64.dv);
    QVERIFY2(ds_error < 1e-4, qPrintable(QStringLiteral("float dL/ds: relative error %1").arg(ds_error)));
    QVERIFY2(dv_error < 1e-4, qPrintable(QStringLiteral("float dL/dV: relative error %1").arg(dv_error)));
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestPrefixBackward)
#include "tst_prefix_backward.moc"
