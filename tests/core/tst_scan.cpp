// The (m, u, w) combine and the prefix scans built on it: algebra, correctness for every length,
// work and depth against theory, the recorded traces, and the erratum of the paper's Algorithm 1.
#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "core/scan/prefix_scan.hpp"
#include "core/scan/state.hpp"
#include "core/scan/state_array.hpp"

namespace aaren {

namespace {

template <class T>
struct State {
  T m;
  T u;
  std::vector<T> w;
};

template <class T>
State<T> combined(const State<T>& a, const State<T>& b) {
  State<T> out{T(0), T(0), std::vector<T>(a.w.size())};
  combine<T>(out.m, out.u, out.w, a.m, a.u, a.w, b.m, b.u, b.w);
  return out;
}

template <class T>
State<T> identity(std::size_t dv) {
  return {negative_infinity<T>(), T(0), std::vector<T>(dv, T(0))};
}

// A summary as a segment of tokens would give: u >= 1 (the maximum contributes exp(0)).
template <class T>
State<T> random_state(std::mt19937& rng, std::size_t dv, double m_spread) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  State<T> s{T(m_spread * (2 * unit(rng) - 1)), T(1 + 4 * unit(rng)), std::vector<T>(dv)};
  for (T& x : s.w) x = T(normal(rng));
  return s;
}

// Largest |a - b| of u and w relative to the largest |b|; m must match exactly (a max is exact).
template <class T>
double state_difference(const State<T>& a, const State<T>& b) {
  if (a.m != b.m) return std::numeric_limits<double>::infinity();
  double worst = std::abs(double(a.u) - double(b.u)), largest = std::abs(double(b.u));
  for (std::size_t j = 0; j < a.w.size(); ++j) {
    worst = std::max(worst, std::abs(double(a.w[j]) - double(b.w[j])));
    largest = std::max(largest, std::abs(double(b.w[j])));
  }
  return largest > 0 ? worst / largest : worst;
}

template <class T>
bool bitwise_equal(const State<T>& a, const State<T>& b) {
  return a.m == b.m && a.u == b.u && a.w == b.w;
}

StateArray<double> random_tokens(int n, int dv, std::mt19937& rng) {
  std::uniform_real_distribution<double> score(-1.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> s(static_cast<std::size_t>(n)), v(std::size_t(n) * std::size_t(dv));
  for (double& x : s) x = score(rng);
  for (double& x : v) x = normal(rng);
  return StateArray<double>::from_tokens(s, v, dv);
}

// How far two scanned arrays are apart: infinite unless the maxima m_i agree exactly (a max is
// exact in any order), else the larger of the outputs' relative error (max |o_a - o_b| / max |o_b|)
// and the normalizers' (max |u_a - u_b| / u_b).
double output_difference(const StateArray<double>& a, const StateArray<double>& b) {
  if (a.m != b.m) return std::numeric_limits<double>::infinity();
  std::vector<double> oa(a.w.size()), ob(b.w.size());
  a.write_outputs(oa);
  b.write_outputs(ob);
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < oa.size(); ++i) {
    worst = std::max(worst, std::abs(oa[i] - ob[i]));
    largest = std::max(largest, std::abs(ob[i]));
  }
  double difference = largest > 0 ? worst / largest : worst;
  for (int i = 0; i < a.n; ++i)
    difference = std::max(difference, std::abs(a.u[std::size_t(i)] - b.u[std::size_t(i)]) / b.u[std::size_t(i)]);
  return difference;
}

int expected_ceil_log2(long n) { return n <= 1 ? 0 : int(std::bit_width(std::uint64_t(n - 1))); }

long hillis_steele_work(long n) {
  long work = 0;
  for (long offset = 1; offset < n; offset *= 2) work += n - offset;
  return work;
}

const std::vector<ScanMethod> kCorrectMethods{ScanMethod::sequential, ScanMethod::hillis_steele, ScanMethod::brent_kung};
const std::vector<ScanMethod> kAllMethods{ScanMethod::sequential, ScanMethod::hillis_steele, ScanMethod::brent_kung,
                                          ScanMethod::hillis_steele_as_printed};

QString name_of(ScanMethod method) {
  return QString::fromLatin1(to_string(method).data(), qsizetype(to_string(method).size()));
}

// Checks the theory for one n; empty when it holds.
QString check_counts(ScanMethod method, long n, ScanCounts counts) {
  const int log_n = expected_ceil_log2(n);
  const QString got = QStringLiteral("%1, N = %2: depth %3, work %4").arg(name_of(method)).arg(n).arg(counts.depth).arg(counts.work);
  switch (method) {
    case ScanMethod::sequential:
      if (counts.depth != n - 1 || counts.work != n - 1) return got + QStringLiteral(", expected N - 1 and N - 1");
      break;
    case ScanMethod::hillis_steele:
      if (counts.depth != log_n || counts.work != hillis_steele_work(n))
        return got + QStringLiteral(", expected %1 and %2").arg(log_n).arg(hillis_steele_work(n));
      break;
    case ScanMethod::brent_kung:
      // Any inclusive scan needs at least N - 1 combines and ceil(log2 N) steps.
      if (counts.work >= 2 * n && n > 0) return got + QStringLiteral(", expected fewer than 2N combines");
      if (counts.work < n - 1) return got + QStringLiteral(", fewer than N - 1 combines cannot scan");
      if (counts.depth > 2 * log_n) return got + QStringLiteral(", expected at most 2 ceil(log2 N) = %1").arg(2 * log_n);
      if (counts.depth < log_n) return got + QStringLiteral(", fewer than ceil(log2 N) steps cannot scan");
      break;
    case ScanMethod::hillis_steele_as_printed:
      break;
  }
  return {};
}

// The states after one parallel step, every combine reading the states from before the step.
StateArray<double> replay_step(const StateArray<double>& before, const std::vector<ScanCombine>& combines) {
  StateArray<double> after = before;
  for (const ScanCombine& c : combines)
    combine<double>(after.m[std::size_t(c.right)], after.u[std::size_t(c.right)], after.w_at(c.right),
                    before.m[std::size_t(c.left)], before.u[std::size_t(c.left)], before.w_at(c.left),
                    before.m[std::size_t(c.right)], before.u[std::size_t(c.right)], before.w_at(c.right));
  return after;
}

bool same_states(const StateArray<double>& a, const StateArray<double>& b) {
  return a.n == b.n && a.dv == b.dv && a.m == b.m && a.u == b.u && a.w == b.w;
}

// Which tokens each position summarizes after the scan, by replaying the trace's combines on
// sets of token indices (the symbolic meaning of a combine is the union of two segments).
std::vector<std::set<int>> covered_tokens(const ScanTrace<double>& trace) {
  std::vector<std::set<int>> cover(std::size_t(trace.initial.n));
  for (int i = 0; i < trace.initial.n; ++i) cover[std::size_t(i)] = {i};
  for (const ScanStep<double>& step : trace.steps) {
    std::vector<std::set<int>> next = cover;
    for (const ScanCombine& c : step.combines)
      next[std::size_t(c.right)].insert(cover[std::size_t(c.left)].begin(), cover[std::size_t(c.left)].end());
    cover = std::move(next);
  }
  return cover;
}

}  // namespace

class TestScan : public QObject {
  Q_OBJECT

 private slots:
  void combine_is_associative_and_commutative_data() {
    QTest::addColumn<double>("m_spread");
    QTest::addRow("equal maxima") << 0.0;
    QTest::addRow("maxima within 1") << 1.0;
    QTest::addRow("maxima within 30") << 30.0;
    QTest::addRow("maxima within 1000 (exp underflows)") << 1000.0;
  }

  void combine_is_associative_and_commutative() {
    QFETCH(double, m_spread);
    std::mt19937 rng(1234);
    double worst_double = 0, worst_float = 0;
    for (int trial = 0; trial < 2000; ++trial) {
      const State<double> a = random_state<double>(rng, 4, m_spread), b = random_state<double>(rng, 4, m_spread),
                          c = random_state<double>(rng, 4, m_spread);
      worst_double = std::max({worst_double, state_difference(combined(combined(a, b), c), combined(a, combined(b, c))),
                               state_difference(combined(a, b), combined(b, a))});
      const State<float> fa = random_state<float>(rng, 4, m_spread), fb = random_state<float>(rng, 4, m_spread),
                         fc = random_state<float>(rng, 4, m_spread);
      worst_float = std::max({worst_float, state_difference(combined(combined(fa, fb), fc), combined(fa, combined(fb, fc))),
                              state_difference(combined(fa, fb), combined(fb, fa))});
    }
    QVERIFY2(worst_double < 1e-14, qPrintable(QStringLiteral("double: worst relative difference %1").arg(worst_double)));
    QVERIFY2(worst_float < 1e-6, qPrintable(QStringLiteral("float: worst relative difference %1").arg(worst_float)));
  }

  // (-inf, 0, 0) leaves any summary exactly as it was, from either side.
  void identity_is_neutral_on_both_sides() {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 200; ++trial) {
      const State<double> a = random_state<double>(rng, 3, 50.0);
      QVERIFY(bitwise_equal(combined(identity<double>(3), a), a));
      QVERIFY(bitwise_equal(combined(a, identity<double>(3)), a));
      const State<float> fa = random_state<float>(rng, 3, 50.0);
      QVERIFY(bitwise_equal(combined(identity<float>(3), fa), fa));
      QVERIFY(bitwise_equal(combined(fa, identity<float>(3)), fa));
    }
  }

  // exp(-inf - -inf) is NaN; the combine must not compute it.
  void two_identities_give_the_identity() {
    const State<double> id = combined(identity<double>(2), identity<double>(2));
    QCOMPARE(id.m, negative_infinity<double>());
    QCOMPARE(id.u, 0.0);
    QCOMPARE(id.w, std::vector<double>(2, 0.0));
    const State<float> fid = combined(identity<float>(2), identity<float>(2));
    QCOMPARE(fid.m, negative_infinity<float>());
    QCOMPARE(fid.u, 0.0f);
    QCOMPARE(fid.w, std::vector<float>(2, 0.0f));

    for (ScanMethod method : kAllMethods) {
      StateArray<double> empty(13, 2);  // all identities
      inclusive_scan(empty, method);
      for (int i = 0; i < empty.n; ++i) {
        QCOMPARE(empty.m[std::size_t(i)], negative_infinity<double>());
        QCOMPARE(empty.u[std::size_t(i)], 0.0);
      }
      QVERIFY2(std::all_of(empty.w.begin(), empty.w.end(), [](double x) { return x == 0.0; }), qPrintable(name_of(method)));
    }
  }

  // Hillis-Steele and Brent-Kung give the sequential prefixes for every length 1..300.
  void every_scan_equals_sequential() {
    std::mt19937 rng(77);
    for (int n = 1; n <= 300; ++n) {
      const StateArray<double> tokens = random_tokens(n, 2, rng);
      StateArray<double> expected = tokens;
      inclusive_scan(expected, ScanMethod::sequential);
      for (ScanMethod method : {ScanMethod::hillis_steele, ScanMethod::brent_kung}) {
        StateArray<double> x = tokens;
        inclusive_scan(x, method);
        const double difference = output_difference(x, expected);
        QVERIFY2(difference < 1e-12, qPrintable(QStringLiteral("%1, N = %2: relative difference %3 from sequential")
                                                    .arg(name_of(method)).arg(n).arg(difference)));
      }
    }
  }

  // The sequential scan itself against prefix sums written out here.
  void sequential_scan_gives_prefix_summaries() {
    std::mt19937 rng(3);
    const int n = 40, dv = 2;
    const StateArray<double> tokens = random_tokens(n, dv, rng);
    StateArray<double> x = tokens;
    inclusive_scan(x, ScanMethod::sequential);
    for (int k = 0; k < n; ++k) {
      const double m = *std::max_element(tokens.m.begin(), tokens.m.begin() + k + 1);
      double u = 0, w0 = 0, w1 = 0;
      for (int i = 0; i <= k; ++i) {
        const double p = std::exp(tokens.m[std::size_t(i)] - m);
        u += p;
        w0 += p * tokens.w_at(i)[0];
        w1 += p * tokens.w_at(i)[1];
      }
      QCOMPARE(x.m[std::size_t(k)], m);
      QVERIFY(std::abs(x.u[std::size_t(k)] - u) <= 1e-13 * u);
      QVERIFY(std::abs(x.w_at(k)[0] / x.u[std::size_t(k)] - w0 / u) <= 1e-13);
      QVERIFY(std::abs(x.w_at(k)[1] / x.u[std::size_t(k)] - w1 / u) <= 1e-13);
    }
  }

  void work_and_depth_match_theory() {
    for (ScanMethod method : kCorrectMethods) {
      std::vector<long> sizes;
      for (long n = 1; n <= 300; ++n) sizes.push_back(n);
      for (long n : {1000L, 1023L, 1024L, 1025L, 4096L, 100000L, 131072L}) sizes.push_back(n);
      for (long n : sizes) {
        StateArray<double> x(int(n), 1);
        const ScanCounts counts = inclusive_scan(x, method);
        const QString failure = check_counts(method, n, counts);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
      }
    }
  }

  void ceil_log2_matches_definition() {
    for (long n = 1; n <= 5000; ++n) QCOMPARE(ceil_log2(n), expected_ceil_log2(n));
    QCOMPARE(ceil_log2(1L << 40), 40);
    QCOMPARE(ceil_log2((1L << 40) + 1), 41);
  }

  // Algorithm 1 as printed loops i = 1..ceil(log2 N) with offset 2^i: offset 1 never runs, so each
  // position gathers only the tokens of its own parity. For N = 8 (offsets 2, 4, 8) every prefix
  // but the first is wrong.
  void printed_algorithm_one_is_wrong_for_n_8() {
    std::mt19937 rng(8);
    const StateArray<double> tokens = random_tokens(8, 3, rng);
    StateArray<double> expected = tokens;
    inclusive_scan(expected, ScanMethod::sequential);
    StateArray<double> printed = tokens, corrected = tokens;
    ScanTrace<double> trace;
    const ScanCounts counts = inclusive_scan(printed, ScanMethod::hillis_steele_as_printed, &trace);
    inclusive_scan(corrected, ScanMethod::hillis_steele);

    std::set<int> wrong;
    for (int i = 0; i < 8; ++i) {
      const bool u_differs = std::abs(printed.u[std::size_t(i)] - expected.u[std::size_t(i)]) > 1e-9 * expected.u[std::size_t(i)];
      double output_gap = 0;
      for (int j = 0; j < 3; ++j)
        output_gap = std::max(output_gap, std::abs(printed.w_at(i)[std::size_t(j)] / printed.u[std::size_t(i)] -
                                                   expected.w_at(i)[std::size_t(j)] / expected.u[std::size_t(i)]));
      if (u_differs || output_gap > 1e-9) wrong.insert(i);
    }
    QCOMPARE(wrong, (std::set<int>{1, 2, 3, 4, 5, 6, 7}));
    QVERIFY2(output_difference(corrected, expected) < 1e-12, "the corrected Hillis-Steele must be right");

    // Offsets 2 and 4 only (8 reaches nothing): 2 steps, (8 - 2) + (8 - 4) combines.
    QCOMPARE(counts.depth, 2);
    QCOMPARE(counts.work, 10L);
    for (const ScanStep<double>& step : trace.steps)
      for (const ScanCombine& c : step.combines) QVERIFY2(c.right - c.left != 1, "offset 1 must never run as printed");
    const std::vector<std::set<int>> cover = covered_tokens(trace);
    for (int i = 0; i < 8; ++i) {
      std::set<int> same_parity;
      for (int j = i % 2; j <= i; j += 2) same_parity.insert(j);
      QCOMPARE(cover[std::size_t(i)], same_parity);
    }
  }

  // The position right after the first always misses token 0, whatever N >= 2.
  void printed_algorithm_one_is_wrong_for_every_n() {
    std::mt19937 rng(9);
    for (int n = 2; n <= 300; ++n) {
      const StateArray<double> tokens = random_tokens(n, 1, rng);
      StateArray<double> expected = tokens, printed = tokens;
      inclusive_scan(expected, ScanMethod::sequential);
      inclusive_scan(printed, ScanMethod::hillis_steele_as_printed);
      QVERIFY2(std::abs(printed.u[1] - expected.u[1]) > 1e-9, qPrintable(QStringLiteral("N = %1").arg(n)));
    }
  }

  void traces_describe_the_scan_data() {
    QTest::addColumn<int>("method");
    QTest::addColumn<int>("n");
    for (ScanMethod method : kAllMethods)
      for (int n : {1, 2, 3, 5, 8, 13, 31, 64, 100, 257})
        QTest::addRow("%s/N=%d", qPrintable(name_of(method)), n) << int(method) << n;
  }

  void traces_describe_the_scan() {
    QFETCH(int, method);
    QFETCH(int, n);
    const ScanMethod scan_method = ScanMethod(method);
    std::mt19937 rng(static_cast<unsigned>(n));
    const StateArray<double> tokens = random_tokens(n, 2, rng);
    StateArray<double> x = tokens;
    ScanTrace<double> trace;
    const ScanCounts counts = inclusive_scan(x, scan_method, &trace);

    QCOMPARE(trace.method, scan_method);
    QCOMPARE(trace.counts.depth, counts.depth);
    QCOMPARE(trace.counts.work, counts.work);
    QVERIFY2(same_states(trace.initial, tokens), "the initial states must be the tokens (s_i, 1, v_i)");
    QCOMPARE(int(trace.steps.size()), counts.depth);
    long work = 0;
    const StateArray<double>* before = &trace.initial;
    for (std::size_t t = 0; t < trace.steps.size(); ++t) {
      const ScanStep<double>& step = trace.steps[t];
      QVERIFY2(!step.combines.empty(), qPrintable(QStringLiteral("step %1 combines nothing").arg(t)));
      work += long(step.combines.size());
      // In list order, as the scan applies them: no position written twice, none read once written.
      std::set<int> written;
      for (const ScanCombine& c : step.combines) {
        QVERIFY2(0 <= c.left && c.left < c.right && c.right < n,
                 qPrintable(QStringLiteral("step %1: combine (%2, %3)").arg(t).arg(c.left).arg(c.right)));
        QVERIFY2(!written.count(c.left) && !written.count(c.right),
                 qPrintable(QStringLiteral("step %1: combine (%2, %3) reads a position written earlier in the step")
                                .arg(t).arg(c.left).arg(c.right)));
        written.insert(c.right);
      }
      QVERIFY2(same_states(step.states, replay_step(*before, step.combines)),
               qPrintable(QStringLiteral("step %1: recorded states differ from its combines applied in parallel").arg(t)));
      before = &step.states;
    }
    QCOMPARE(work, counts.work);
    QVERIFY2(same_states(*before, x), "the last recorded states must be the scan's result");

    StateArray<double> untraced = tokens;
    const ScanCounts untraced_counts = inclusive_scan(untraced, scan_method);
    QCOMPARE(untraced_counts.depth, counts.depth);
    QCOMPARE(untraced_counts.work, counts.work);
    QVERIFY2(same_states(untraced, x), "tracing must not change the result");

    if (scan_method != ScanMethod::hillis_steele_as_printed) {
      const std::vector<std::set<int>> cover = covered_tokens(trace);
      for (int i = 0; i < n; ++i)
        QVERIFY2(int(cover[std::size_t(i)].size()) == i + 1,
                 qPrintable(QStringLiteral("position %1 summarizes %2 tokens").arg(i).arg(cover[std::size_t(i)].size())));
    }
  }

  // The work-efficient scan is Brent-Kung's inclusive one: for N a power of two it does
  // 2N - 2 - log2 N combines in 2 log2 N - 1 steps (11 in 5 at N = 8), not the 2(N - 1) of
  // Blelloch's published exclusive scan (14 at N = 8).
  void brent_kung_counts_for_powers_of_two_data() {
    QTest::addColumn<long>("n");
    QTest::addColumn<long>("work");
    QTest::addColumn<int>("depth");
    QTest::addRow("N = 2") << 2L << 1L << 1;
    QTest::addRow("N = 8") << 8L << 11L << 5;
    QTest::addRow("N = 16") << 16L << 26L << 7;
    QTest::addRow("N = 1024") << 1024L << 2036L << 19;
  }
  void brent_kung_counts_for_powers_of_two() {
    QFETCH(long, n);
    QFETCH(long, work);
    QFETCH(int, depth);
    std::mt19937 rng(8);
    StateArray<double> x = random_tokens(int(n), 1, rng);
    const ScanCounts counts = inclusive_scan(x, ScanMethod::brent_kung);
    QCOMPARE(counts.work, work);
    QCOMPARE(counts.depth, depth);
    QVERIFY(counts.work < 2 * (n - 1));  // fewer than Blelloch's exclusive scan
  }

  // The name says which scan it is, and the old name is refused with the reason.
  void brent_kung_is_named_for_what_it_is() {
    QCOMPARE(name_of(ScanMethod::brent_kung), QStringLiteral("brent-kung"));
    const QString note = QString::fromStdString(renamed_scan_note("blelloch"));
    QVERIFY2(note.contains(QLatin1String("brent-kung")) && note.contains(QLatin1String("exclusive")), qPrintable(note));
    QVERIFY(renamed_scan_note("brent-kung").empty());
    QVERIFY(renamed_scan_note("hillis-steele").empty());
  }

  // A trace may be reused: a second scan replaces the first one's steps.
  void trace_is_replaced_on_reuse() {
    std::mt19937 rng(4);
    ScanTrace<double> trace;
    StateArray<double> big = random_tokens(64, 1, rng), small = random_tokens(5, 1, rng);
    inclusive_scan(big, ScanMethod::hillis_steele, &trace);
    const ScanCounts counts = inclusive_scan(small, ScanMethod::brent_kung, &trace);
    QCOMPARE(trace.method, ScanMethod::brent_kung);
    QCOMPARE(int(trace.steps.size()), counts.depth);
    QCOMPARE(trace.initial.n, 5);
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestScan)
#include "tst_scan.moc"
