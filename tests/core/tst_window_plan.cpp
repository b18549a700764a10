// The window planning's arithmetic against the real preparation: over a grid of table lengths,
// splits, look-backs and horizons, count_windows must give exactly the windows
// prepare_forecast_data builds, and window_problem exactly the PlanError it throws.
#include <QtTest>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/data/forecast_data.hpp"
#include "core/data/split.hpp"
#include "core/planning/window_plan.hpp"

using namespace aaren;

namespace {

TimeSeriesTable hourly_table(int rows) {
  TimeSeriesTable table;
  table.source = "plan.csv";
  table.channel_names = {"a", "b"};
  table.date_column_name = "date";
  table.values = Matrix<double>(rows, 2);
  for (int r = 0; r < rows; ++r) {
    table.times.push_back(1467331200.0 + 3600.0 * r);
    table.dates.emplace_back();
    table.values(r, 0) = std::sin(0.1 * r);
    table.values(r, 1) = 0.01 * r;
  }
  return table;
}

SplitSpec fractions(double train, double validation, double test) {
  SplitSpec spec;
  spec.fractions = {train, validation, test};
  return spec;
}

SplitSpec ett() {
  SplitSpec spec;
  spec.method = SplitSpec::Method::ett_months;
  return spec;
}

std::string describe(const PlanProblem& p) {
  return std::to_string(int(p.code)) + "/" + std::to_string(int(p.part)) + "/" + std::to_string(p.rows) + "/" +
         std::to_string(p.look_back) + "/" + std::to_string(p.horizon) + "/" + std::to_string(p.needed);
}

// Compares the closed form with the preparation for one case; returns whether the case fit.
bool agrees(const TimeSeriesTable& table, const SplitSpec& split, int look_back, int horizon) {
  const std::string where = std::to_string(table.values.rows) + " rows, split " + to_string(split) + ", T " +
                            std::to_string(look_back) + ", H " + std::to_string(horizon);
  const ChronologicalSplit parts = split_rows(split, table.values.rows, table.times);
  const WindowLengths lengths{look_back, horizon};
  const std::optional<PlanProblem> problem = window_problem(parts, lengths);
  try {
    const ForecastData data = prepare_forecast_data(table, {look_back, horizon, split});
    if (problem) QTest::qFail(("the plan refuses what the preparation accepts: " + where).c_str(), __FILE__, __LINE__);
    const WindowCounts counts = count_windows(parts, lengths);
    const WindowCounts prepared{data.train.sample_count(), data.validation.sample_count(), data.test.sample_count()};
    if (!(counts == prepared))
      QTest::qFail(("counts differ: " + where).c_str(), __FILE__, __LINE__);
    return true;
  } catch (const PlanError& error) {
    if (!problem || describe(*problem) != describe(error.problem()))
      QTest::qFail(("the plan's problem differs from the preparation's: " + where).c_str(), __FILE__, __LINE__);
    if (!(count_windows(parts, lengths) == WindowCounts{}))
      QTest::qFail(("a refused plan counts windows: " + where).c_str(), __FILE__, __LINE__);
    return false;
  }
}

}  // namespace

class TestWindowPlan : public QObject {
  Q_OBJECT

 private slots:
  void counts_match_the_preparation_over_a_grid() {
    const std::vector<SplitSpec> splits = {fractions(0.7, 0.1, 0.2), fractions(0.6, 0.2, 0.2),
                                           fractions(0.34, 0.33, 0.33), fractions(0.8, 0.15, 0.05)};
    const std::vector<int> lengths = {1, 2, 3, 5, 8, 13, 24, 50, 96};
    int fitting = 0, refused = 0;
    for (const int rows : {20, 37, 64, 100, 151, 400, 1000}) {
      const TimeSeriesTable table = hourly_table(rows);
      for (const SplitSpec& split : splits)
        for (const int look_back : lengths)
          for (const int horizon : lengths) {
            (agrees(table, split, look_back, horizon) ? fitting : refused)++;
            if (QTest::currentTestFailed()) return;
          }
    }
    QVERIFY(fitting > 100);
    QVERIFY(refused > 100);
  }

  void counts_match_the_preparation_for_the_ett_split() {
    const TimeSeriesTable table = hourly_table(14400);
    for (const int look_back : {1, 96, 336, 720, 8000, 8639})
      for (const int horizon : {1, 24, 96, 720, 2880, 2881}) {
        agrees(table, ett(), look_back, horizon);
        if (QTest::currentTestFailed()) return;
      }
    const ChronologicalSplit parts = split_rows(ett(), table.values.rows, table.times);
    QCOMPARE(count_windows(parts, {96, 96}), (WindowCounts{8640 - 96 - 96 + 1, 2880 - 96 + 1, 2880 - 96 + 1}));
  }

  void one_row_short_of_a_window_is_refused_for_each_part() {
    // 100 rows at 0.7/0.1/0.2: training rows 0..70, validation 70..80, test 80..100.
    const ChronologicalSplit parts = split_by_fractions(100, {0.7, 0.1, 0.2});
    QCOMPARE(count_windows(parts, {60, 10}), (WindowCounts{1, 1, 11}));
    const std::optional<PlanProblem> training = window_problem(parts, {61, 10});
    QVERIFY(training);
    QCOMPARE(training->part, SplitPart::training);
    QCOMPARE(training->needed, 71);
    QCOMPARE(training->rows, 70);
    const std::optional<PlanProblem> validation = window_problem(parts, {10, 11});
    QVERIFY(validation);
    QCOMPARE(validation->part, SplitPart::validation);
    QCOMPARE(validation->rows, 10);
    QCOMPARE(validation->needed, 11);
    const ChronologicalSplit short_test = split_by_fractions(100, {0.6, 0.35, 0.05});
    const std::optional<PlanProblem> test = window_problem(short_test, {10, 6});
    QVERIFY(test);
    QCOMPARE(test->part, SplitPart::test);
    QCOMPARE(count_windows(short_test, {10, 5}).test, 1);
    QCOMPARE(count_windows(short_test, {10, 6}), WindowCounts{});
  }

  void lengths_below_one_are_refused_first() {
    const ChronologicalSplit parts = split_by_fractions(1000, {0.7, 0.1, 0.2});
    for (const WindowLengths lengths : {WindowLengths{0, 5}, WindowLengths{5, 0}, WindowLengths{-3, -3}}) {
      const std::optional<PlanProblem> problem = window_problem(parts, lengths);
      QVERIFY(problem);
      QCOMPARE(problem->code, PlanErrorCode::window_length_below_one);
    }
    QVERIFY_THROWS_EXCEPTION(PlanError, require_windows(parts, {0, 5}));
    QVERIFY_THROWS_EXCEPTION(PlanError, prepare_forecast_data(hourly_table(1000), {0, 96, {}}));
  }

  void fitting_keeps_lengths_that_fit_and_else_takes_the_longest_of_the_ladder() {
    const ChronologicalSplit long_parts = split_by_fractions(2000, {0.7, 0.1, 0.2});
    QCOMPARE(fit_window_lengths(long_parts, {96, 96}), std::optional<WindowLengths>(WindowLengths{96, 96}));
    QCOMPARE(fit_window_lengths(long_parts, {7, 3}), std::optional<WindowLengths>(WindowLengths{7, 3}));
    // 144 monthly rows: training 100, validation 16, test 28 -> a horizon of 12 at most.
    const ChronologicalSplit monthly = split_by_fractions(144, {0.7, 0.1, 0.2});
    const std::optional<WindowLengths> fitted = fit_window_lengths(monthly, {96, 96});
    QVERIFY(fitted);
    QCOMPARE(*fitted, (WindowLengths{48, 12}));
    // The first rung that fits, found by arithmetic, is the one the preparation accepts.
    for (const WindowLengths& rung : window_length_ladder()) {
      if (rung == *fitted) break;
      QVERIFY(window_problem(monthly, rung));
    }
    QVERIFY(!window_problem(monthly, *fitted));
    const ChronologicalSplit tiny = split_by_fractions(4, {0.5, 0.25, 0.25});
    QCOMPARE(fit_window_lengths(tiny, {96, 96}), std::nullopt);
  }

  void the_message_names_the_numbers_but_no_flags() {
    const ChronologicalSplit parts = split_by_fractions(200, {0.7, 0.1, 0.2});
    try {
      require_windows(parts, {96, 96});
      QFAIL("140 training rows cannot hold look-back 96 + horizon 96");
    } catch (const PlanError& error) {
      QCOMPARE(error.problem().code, PlanErrorCode::too_few_rows_for_windows);
      QCOMPARE(describe_problem(error.problem()),
               std::string("the training part has 140 rows but look-back 96 + horizon 96 needs at least 192"));
      const std::string what = error.what();
      QVERIFY2(what.find("--") == std::string::npos, what.c_str());
      QVERIFY2(what.find("lower the look-back or the horizon") != std::string::npos, what.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestWindowPlan)
#include "tst_window_plan.moc"
