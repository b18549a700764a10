// The classification yardsticks (core/classify/nearest_neighbour.hpp) against references written
// plainly here: DTW as the full O(n m) table, with and without a window, equal and unequal lengths,
// one and several dimensions; LB_Keogh never above the true distance; early abandoning never
// changing a distance below its bound; the window search's leave-one-out accuracy recomputed window
// by window with the plain DTW; the z-normalisation and gap filling; the majority class.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/classify/nearest_neighbour.hpp"

using namespace aaren;

namespace {

NeighbourSeries random_series(std::mt19937& rng, int length, int dims) {
  std::normal_distribution<double> normal;
  NeighbourSeries s{length, std::vector<double>(std::size_t(length * dims))};
  for (double& v : s.values) v = normal(rng);
  return s;
}

// The textbook recurrence over the whole table; cells outside the band are infinite.
double plain_dtw(const NeighbourSeries& a, const NeighbourSeries& b, int dims, int window) {
  const double inf = std::numeric_limits<double>::infinity();
  const int n = a.length, m = b.length, w = std::max(window, std::abs(n - m));
  std::vector<std::vector<double>> D(std::size_t(n + 1), std::vector<double>(std::size_t(m + 1), inf));
  D[0][0] = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= m; ++j) {
      if (std::abs(i - j) > w) continue;
      double cost = 0;
      for (int k = 0; k < dims; ++k)
        cost += std::pow(a.values[std::size_t((i - 1) * dims + k)] - b.values[std::size_t((j - 1) * dims + k)], 2);
      D[std::size_t(i)][std::size_t(j)] =
          cost + std::min({D[std::size_t(i - 1)][std::size_t(j)], D[std::size_t(i)][std::size_t(j - 1)],
                           D[std::size_t(i - 1)][std::size_t(j - 1)]});
    }
  return D[std::size_t(n)][std::size_t(m)];
}

int plain_nearest(const std::vector<NeighbourSeries>& train, const NeighbourSeries& q, int dims, int window, int skip) {
  double best = std::numeric_limits<double>::infinity();
  int nearest = -1;
  for (int j = 0; j < int(train.size()); ++j) {
    if (j == skip) continue;
    const double d = plain_dtw(q, train[std::size_t(j)], dims, window);
    if (d < best) best = d, nearest = j;
  }
  return nearest;
}

// Two classes: a bump early or late in the series, shifted by a few steps at random, plus noise.
void bump_cases(std::mt19937& rng, int count, int length, std::vector<NeighbourSeries>& cases, std::vector<int>& labels) {
  std::normal_distribution<double> noise(0.0, 0.3);
  std::uniform_int_distribution<int> shift(-length / 8, length / 8);
  for (int c = 0; c < count; ++c) {
    const int label = c % 2, centre = (label ? 2 * length / 3 : length / 3) + shift(rng);
    NeighbourSeries s{length, std::vector<double>(std::size_t(length))};
    for (int t = 0; t < length; ++t) s.values[std::size_t(t)] = std::exp(-0.1 * (t - centre) * (t - centre)) + noise(rng);
    cases.push_back(std::move(s));
    labels.push_back(label);
  }
}

LabelledSeriesSet labelled_set(const std::string& source, const std::vector<std::string>& names,
                               const std::vector<std::vector<double>>& series, const std::vector<int>& labels) {
  LabelledSeriesSet set;
  set.source = source;
  set.dims = 1;
  set.class_names = names;
  for (std::size_t i = 0; i < series.size(); ++i)
    set.series.push_back({std::to_string(i + 1), int(series[i].size()), series[i], labels[i]});
  return set;
}

}  // namespace

class NearestNeighbourTest : public QObject {
  Q_OBJECT

 private slots:
  void dtwMatchesTheFullTable_data() {
    QTest::addColumn<int>("lengthA");
    QTest::addColumn<int>("lengthB");
    QTest::addColumn<int>("dims");
    QTest::addColumn<int>("window");
    QTest::newRow("equal, full") << 30 << 30 << 1 << 30;
    QTest::newRow("equal, window 3") << 30 << 30 << 1 << 3;
    QTest::newRow("equal, window 0 (Euclidean path)") << 25 << 25 << 2 << 0;
    QTest::newRow("unequal, full") << 17 << 40 << 1 << 40;
    QTest::newRow("unequal, window below the difference") << 40 << 31 << 3 << 2;
    QTest::newRow("unequal, window 12") << 22 << 35 << 2 << 12;
    QTest::newRow("one step against many") << 1 << 9 << 1 << 0;
  }
  void dtwMatchesTheFullTable() {
    QFETCH(int, lengthA);
    QFETCH(int, lengthB);
    QFETCH(int, dims);
    QFETCH(int, window);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
      const NeighbourSeries a = random_series(rng, lengthA, dims), b = random_series(rng, lengthB, dims);
      const double expected = plain_dtw(a, b, dims, window);
      int width = -2;
      const double got = dtw_distance(a, b, dims, window, kNoAbandon, &width);
      QVERIFY2(std::abs(got - expected) <= 1e-12 * expected, qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
      QCOMPARE(dtw_distance(b, a, dims, window), got);
      // The path's width is the narrowest window that gives the same distance.
      QVERIFY(width >= std::abs(lengthA - lengthB) && width <= std::max(window, std::abs(lengthA - lengthB)));
      QVERIFY(std::abs(plain_dtw(a, b, dims, width) - expected) <= 1e-12 * expected);
      if (width > std::abs(lengthA - lengthB)) QVERIFY(plain_dtw(a, b, dims, width - 1) > expected);
    }
  }

  void earlyAbandoningNeverChangesADistanceBelowItsBound() {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 200; ++trial) {
      const NeighbourSeries a = random_series(rng, 20, 2), b = random_series(rng, 24, 2);
      const double exact = plain_dtw(a, b, 2, 5);
      const double bound = exact * std::uniform_real_distribution<double>(0.5, 1.5)(rng);
      const double got = dtw_distance(a, b, 2, 5, bound);
      if (exact <= bound) QVERIFY(std::abs(got - exact) <= 1e-12 * exact);
      else QVERIFY(got == std::numeric_limits<double>::infinity() || std::abs(got - exact) <= 1e-12 * exact);
    }
  }

  void lbKeoghNeverExceedsTheDistance() {
    std::mt19937 rng(13);
    for (int window : {0, 1, 4, 15, 60}) {
      for (int trial = 0; trial < 50; ++trial) {
        const int dims = 1 + trial % 3;
        const NeighbourSeries q = random_series(rng, 50, dims), c = random_series(rng, 50, dims);
        const double lb = lb_keogh(q, keogh_envelope(c, dims, window), dims);
        QVERIFY(lb >= 0);
        QVERIFY(lb <= plain_dtw(q, c, dims, window) * (1 + 1e-12));
      }
    }
    // The envelope is the running max and min written out.
    const NeighbourSeries c{6, {3, 1, 4, 1, 5, 9}};
    const KeoghEnvelope e = keogh_envelope(c, 1, 1);
    QCOMPARE(e.upper, (std::vector<double>{3, 4, 4, 5, 9, 9}));
    QCOMPARE(e.lower, (std::vector<double>{1, 1, 1, 1, 1, 5}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lb_keogh(NeighbourSeries{5, {0, 0, 0, 0, 0}}, e, 1));
  }

  void nearestLabelsAgreeWithThePlainSearch() {
    std::mt19937 rng(17);
    std::vector<NeighbourSeries> train, test;
    std::vector<int> labels, test_labels;
    bump_cases(rng, 30, 40, train, labels);
    bump_cases(rng, 20, 40, test, test_labels);
    for (int window : {0, 2, 6, 40}) {
      const std::vector<int> got = nearest_labels_dtw(train, labels, test, 1, window);
      for (std::size_t i = 0; i < test.size(); ++i)
        QCOMPARE(got[i], labels[std::size_t(plain_nearest(train, test[i], 1, window, -1))]);
    }
  }

  void theWindowSearchIsLeaveOneOutWindowByWindow() {
    std::mt19937 rng(19);
    std::vector<NeighbourSeries> train;
    std::vector<int> labels;
    bump_cases(rng, 24, 30, train, labels);
    // Two cases of other lengths, so that the search also meets unequal lengths.
    std::vector<NeighbourSeries> extra;
    std::vector<int> extra_labels;
    bump_cases(rng, 2, 26, extra, extra_labels);
    for (std::size_t i = 0; i < extra.size(); ++i) train.push_back(extra[i]), labels.push_back(extra_labels[i]);
    const WindowChoice choice = choose_dtw_window(train, labels, 1);

    double best_accuracy = -1;
    int best_window = -1;
    double best_percent = -1;
    for (int r = 100; r >= 0; --r) {
      const int w = int(std::lround(r * 30 / 100.0));
      long correct = 0;
      for (int i = 0; i < int(train.size()); ++i)
        correct += labels[std::size_t(plain_nearest(train, train[std::size_t(i)], 1, w, i))] == labels[std::size_t(i)];
      const double accuracy = double(correct) / double(train.size());
      if (accuracy >= best_accuracy) best_accuracy = accuracy, best_window = w, best_percent = r;
    }
    QCOMPARE(choice.window, best_window);
    QCOMPARE(choice.percent, best_percent);
    QCOMPARE(choice.loo_accuracy, best_accuracy);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, choose_dtw_window({train[0]}, {0}, 1));
  }

  void casesAreZNormalisedWithTheirGapsFilled() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // One case of two dimensions: a gap in the middle and at both ends, and a constant dimension.
    LabelledSeriesSet set;
    set.dims = 2;
    set.class_names = {"a"};
    set.series.push_back({"1", 5, {nan, 7, 2, 7, nan, 7, 8, 7, nan, 7}, 0});
    const NeighbourSeries s = neighbour_series(set, NeighbourScaling::per_series)[0];
    // Dimension 0 filled: 2, 2, 5, 8, 8 (mean 5, deviation sqrt(7.2)); dimension 1: all 7 -> zeros.
    const double sd = std::sqrt(7.2);
    const std::vector<double> expected{-3 / sd, 0, -3 / sd, 0, 0, 0, 3 / sd, 0, 3 / sd, 0};
    for (std::size_t i = 0; i < expected.size(); ++i) QVERIFY(std::abs(s.values[i] - expected[i]) < 1e-12);
    // By default several dimensions are used as given (gaps filled), one dimension is z-normalised.
    QCOMPARE(neighbour_series(set)[0].values, (std::vector<double>{2, 7, 2, 7, 5, 7, 8, 7, 8, 7}));
    QCOMPARE(neighbour_series(set, NeighbourScaling::none)[0].values, neighbour_series(set)[0].values);
    set.dims = 1;
    set.series[0] = {"1", 4, {1, nan, 3, 5}, 0};
    // 1, 2, 3, 5: mean 2.75.
    const double mean = 2.75, dev = std::sqrt((1.75 * 1.75 + 0.75 * 0.75 + 0.25 * 0.25 + 2.25 * 2.25) / 4);
    const std::vector<double> z = neighbour_series(set)[0].values;
    QCOMPARE(int(z.size()), 4);
    QVERIFY(std::abs(z[1] - (2 - mean) / dev) < 1e-12 && std::abs(z[3] - (5 - mean) / dev) < 1e-12);
    QVERIFY(z_normalises(NeighbourScaling::automatic, 1) && !z_normalises(NeighbourScaling::automatic, 2));
    QCOMPARE(neighbour_scaling_from_string("per-series"), std::optional(NeighbourScaling::per_series));
    QVERIFY(!neighbour_scaling_from_string("zscore"));
    // Euclidean between cases of different lengths stretches the shorter one.
    const NeighbourSeries a{3, {0, 1, 2}}, b{5, {0, 0.5, 1, 1.5, 3}};
    QVERIFY(std::abs(squared_euclidean(a, b, 1) - 1.0) < 1e-12);
    QCOMPARE(squared_euclidean(b, a, 1), squared_euclidean(a, b, 1));
  }

  void baselinesOnASmallProblem() {
    std::mt19937 rng(23);
    std::vector<NeighbourSeries> train, test;
    std::vector<int> train_labels, test_labels;
    bump_cases(rng, 20, 32, train, train_labels);
    bump_cases(rng, 11, 32, test, test_labels);
    // Eleven test cases, six of "early"; TRAIN's class counts tie, so the majority is the first name.
    std::vector<std::vector<double>> a, b;
    for (const NeighbourSeries& s : train) a.push_back(s.values);
    for (const NeighbourSeries& s : test) b.push_back(s.values);
    const LabelledSeriesSet train_set = labelled_set("TRAIN.ts", {"early", "late"}, a, train_labels);
    // TEST names its classes in the other order: labels are matched by name.
    std::vector<int> swapped;
    for (int l : test_labels) swapped.push_back(1 - l);
    const LabelledSeriesSet test_set = labelled_set("TEST.ts", {"late", "early"}, b, swapped);
    const NeighbourBaselines got = neighbour_baselines(train_set, test_set);
    QCOMPARE(got.test_cases, 11L);
    QCOMPARE(got.majority_class, 0);
    QCOMPARE(got.majority, 6.0 / 11.0);
    const std::vector<NeighbourSeries> za = neighbour_series(train_set), zb = neighbour_series(test_set);
    auto accuracy_at = [&](int window) {
      long hits = 0;
      for (std::size_t i = 0; i < zb.size(); ++i)
        hits += train_labels[std::size_t(plain_nearest(za, zb[i], 1, window, -1))] == test_labels[i];
      return double(hits) / double(zb.size());
    };
    QCOMPARE(got.dtw_full, accuracy_at(32));
    QCOMPARE(got.dtw_window, accuracy_at(got.window.window));
    QVERIFY(got.dtw_window > 0.8);
    QCOMPARE(got.euclidean, accuracy_at(0));  // equal lengths: the diagonal is the Euclidean path

    // What a training run affords: this problem and the archive-sized ones, not a large file.
    QCOMPARE(yardstick_cells(20, 11, 32), 20.0 * 31 * 32 * 32);
    QVERIFY(yardstick_cells(300, 30, 500) <= kMostYardstickCells);
    QVERIFY(yardstick_cells(5000, 1000, 1000) > kMostYardstickCells);

    LabelledSeriesSet other = test_set;
    other.class_names = {"late", "middle"};
    other.series[0].label = 1;
    try {
      neighbour_baselines(train_set, other);
      QFAIL("a class TRAIN lacks was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("class 'middle', which the training file does not have"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(NearestNeighbourTest)
#include "tst_nearest_neighbour.moc"
