// The naive baselines and the errors in the data's own units: the last value repeated and the
// seasonal naive forecast against hand-computed errors on a tiny series (both units, per channel and
// overall), the seasonal period's detection, the model's per-channel errors on either evaluation
// path, and metrics.json's new fields, with runs written before them still read.
#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

#include "core/data/forecast_data.hpp"
#include "core/data/seasonal_period.hpp"
#include "core/forecast/forecast_evaluation.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/forecast/forecast_windows.hpp"
#include "core/forecast/naive_baselines.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "support/small_runs.hpp"

using namespace aaren;

using Values = std::vector<double>;
Q_DECLARE_METATYPE(Values)

namespace {

// Six rows of two channels: a quickening rise, and 0, 10, 0, ... (a season of two rows). With a
// look-back of 3 and a horizon of 2 it holds two windows, whose errors are worked out by hand below.
Matrix<float> tiny_series() {
  Matrix<float> m(6, 2);
  const float rise[] = {1, 2, 4, 7, 11, 16};
  for (int t = 0; t < 6; ++t) {
    m(t, 0) = rise[t];
    m(t, 1) = t % 2 ? 10.0f : 0.0f;
  }
  return m;
}

constexpr WindowShape kTinyShape{3, 2, 2};

// The tiny series as if scaled by these standard deviations.
StandardScaler tiny_scaler() { return {{100, -5}, {2, 0.5}}; }

// A monthly CSV of `rows` rows from 1990-01 with two channels of different scales: a yearly season
// on a rise, and a slower wave.
std::string monthly_csv(int rows) {
  std::string text = "month,sales,price\n";
  for (int t = 0; t < rows; ++t) {
    const int year = 1990 + t / 12, month = 1 + t % 12;
    text += std::to_string(year) + "-" + (month < 10 ? "0" : "") + std::to_string(month) + "," +
            std::to_string(200 + 3 * t + 40 * std::sin(2 * M_PI * t / 12)) + "," +
            std::to_string(1.5 + 0.2 * std::cos(2 * M_PI * t / 40)) + "\n";
  }
  return text;
}

ForecastData prepared(const std::string& csv, int seq_len, int horizon, const CsvReadOptions& options = {}) {
  ForecastDataOptions o;
  o.seq_len = seq_len;
  o.horizon = horizon;
  return prepare_forecast_data(parse_time_series_csv(csv, "series.csv", options), o);
}

void compare_close(double actual, double expected, const char* what) {
  QVERIFY2(std::abs(actual - expected) <= 1e-9 * std::max(1.0, std::abs(expected)),
           qPrintable(QStringLiteral("%1: %2, expected %3").arg(what).arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

void compare_metrics(const EvalMetrics& actual, double mse, double mae, const Values& channel_mse,
                     const Values& channel_mae) {
  compare_close(actual.mse, mse, "MSE");
  compare_close(actual.mae, mae, "MAE");
  QCOMPARE(actual.channel_mse.size(), channel_mse.size());
  QCOMPARE(actual.channel_mae.size(), channel_mae.size());
  for (std::size_t c = 0; c < channel_mse.size(); ++c) {
    compare_close(actual.channel_mse[c], channel_mse[c], "a channel's MSE");
    compare_close(actual.channel_mae[c], channel_mae[c], "a channel's MAE");
  }
}

std::vector<float> forecast_of(const std::vector<float>& x, int seq_len, int horizon, int period) {
  std::vector<float> y(static_cast<std::size_t>(horizon));
  seasonal_naive_forecast(y.data(), x.data(), WindowShape{seq_len, horizon, 1}, period);
  return y;
}

}  // namespace

class TestForecastBaselines : public QObject {
  Q_OBJECT

 private slots:
  void seasonalNaiveRepeatsTheLastSeason_data() {
    QTest::addColumn<int>("period");
    QTest::addColumn<Values>("expected");
    // x = 1, 2, 3, 4; a horizon of 5.
    QTest::newRow("period 1: the last value repeated") << 1 << Values{4, 4, 4, 4, 4};
    QTest::newRow("period 2") << 2 << Values{3, 4, 3, 4, 3};
    QTest::newRow("period 3") << 3 << Values{2, 3, 4, 2, 3};
    QTest::newRow("period 4: the whole look-back") << 4 << Values{1, 2, 3, 4, 1};
  }
  void seasonalNaiveRepeatsTheLastSeason() {
    QFETCH(int, period);
    QFETCH(Values, expected);
    const std::vector<float> y = forecast_of({1, 2, 3, 4}, 4, 5, period);
    QCOMPARE(Values(y.begin(), y.end()), expected);
  }

  void seasonalNaiveRefusesPeriodsOutsideTheLookBack() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, forecast_of({1, 2, 3, 4}, 4, 2, 5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, forecast_of({1, 2, 3, 4}, 4, 2, 0));
  }

  // Window 0 reads rows 0-2 and is scored on rows 3-4, window 1 reads rows 1-3 and is scored on 4-5.
  // Last value: channel 0 errors 3, 7 | 4, 9; channel 1 errors 10, 0 | 10, 0.
  // Period 2: channel 0 forecasts 2, 4 | 4, 7 against 7, 11 | 11, 16 (errors 5, 7 | 7, 9); channel 1
  // is exact. In the data's units channel 0's errors double (std 2), channel 1's halve (std 0.5).
  void baselinesOnATinySeries_data() {
    QTest::addColumn<int>("period");
    QTest::addColumn<Values>("scaled");    // mse, mae, channel 0 mse, mae, channel 1 mse, mae
    QTest::addColumn<Values>("original");  // the same in the data's units
    QTest::newRow("last value") << 1 << Values{355.0 / 8, 43.0 / 8, 155.0 / 4, 23.0 / 4, 200.0 / 4, 20.0 / 4}
                                << Values{(155.0 + 12.5) / 2, (11.5 + 2.5) / 2, 155, 11.5, 12.5, 2.5};
    QTest::newRow("seasonal naive, period 2") << 2 << Values{204.0 / 8, 28.0 / 8, 204.0 / 4, 28.0 / 4, 0, 0}
                                              << Values{204.0 / 2, 14.0 / 2, 204, 14, 0, 0};
  }
  void baselinesOnATinySeries() {
    QFETCH(int, period);
    QFETCH(Values, scaled);
    QFETCH(Values, original);
    const Matrix<float> series = tiny_series();
    const ForecastWindows windows(series, make_window_index({0, 6}, 3, 2));
    const EvalMetrics metrics = naive_forecast_metrics(windows, kTinyShape, period);
    QCOMPARE(metrics.windows, 2L);
    compare_metrics(metrics, scaled[0], scaled[1], {scaled[2], scaled[4]}, {scaled[3], scaled[5]});
    const UnitMetrics both = in_both_units(metrics, tiny_scaler());
    QCOMPARE(both.scaled.mse, metrics.mse);
    compare_metrics(both.original, original[0], original[1], {original[2], original[4]}, {original[3], original[5]});
  }

  void originalUnitsNeedEachChannel() {
    EvalMetrics overall_only;
    overall_only.mse = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, to_original_units(overall_only, tiny_scaler()));
    EvalMetrics one_channel = overall_only;
    one_channel.channel_mse = one_channel.channel_mae = {1};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, to_original_units(one_channel, tiny_scaler()));
  }

  // On a prepared data set the comparison is scored on its test windows: checked against the errors
  // worked out from the table's own values in double precision.
  void comparisonScoresTheTestWindowsInTheDataUnits() {
    const ForecastData data = prepared(monthly_csv(120), 24, 6);
    const SeasonalPeriod period = seasonal_period_of(data);
    QCOMPARE(period.length, 12);
    QCOMPARE(QString::fromStdString(period.source), QStringLiteral("dates"));
    EvalMetrics model;
    model.windows = data.test.sample_count();
    model.mse = 0.5;
    model.mae = 0.25;
    model.channel_mse = {0.75, 0.25};
    model.channel_mae = {0.3, 0.2};
    const TestComparison comparison = compare_with_baselines(model, data, period);
    QCOMPARE(comparison.model.scaled.mse, 0.5);
    compare_close(comparison.model.original.channel_mse[0], 0.75 * data.scaler.stddev[0] * data.scaler.stddev[0],
                  "the model's MSE in the data's units");
    QVERIFY(comparison.seasonal_naive.has_value());
    const auto& values = data.table.values;
    for (int p : {1, 12}) {
      const UnitMetrics& measured = p == 1 ? comparison.last_value : *comparison.seasonal_naive;
      QCOMPARE(measured.original.windows, long(data.test.sample_count()));
      for (int c = 0; c < 2; ++c) {
        double squared = 0, absolute = 0, count = 0;
        for (int w = 0; w < data.test.sample_count(); ++w)
          for (int h = 0; h < 6; ++h) {
            const int target = data.test.target_row(w) + h;
            const int source = data.test.target_row(w) - p + h % p;
            const double error = values(target, c) - values(source, c);
            squared += error * error;
            absolute += std::abs(error);
            ++count;
          }
        const double scale = std::max(1.0, squared / count);
        QVERIFY(std::abs(measured.original.channel_mse[std::size_t(c)] - squared / count) < 1e-5 * scale);
        QVERIFY(std::abs(measured.original.channel_mae[std::size_t(c)] - absolute / count) <
                1e-5 * std::max(1.0, absolute / count));
      }
    }
    // On a yearly season on a rise, the value a year earlier beats the last value.
    QVERIFY(comparison.seasonal_naive->original.channel_mae[0] < comparison.last_value.original.channel_mae[0]);
  }

  void seasonalPeriod_data() {
    QTest::addColumn<QString>("csv");
    QTest::addColumn<int>("look_back");
    QTest::addColumn<int>("given");  // 0: none given
    QTest::addColumn<int>("length");
    QTest::addColumn<QString>("source");
    auto undated = [](auto value) {
      QString text = QStringLiteral("value\n");
      for (int t = 0; t < 200; ++t) text += QString::number(value(t), 'g', 10) + "\n";
      return text;
    };
    const QString monthly = QString::fromStdString(monthly_csv(120));
    QTest::newRow("monthly dates") << monthly << 24 << 0 << 12 << "dates";
    QTest::newRow("monthly dates, look-back too short") << monthly << 6 << 0 << 0 << "";
    QTest::newRow("given") << monthly << 24 << 5 << 5 << "given";
    QTest::newRow("given, longer than the look-back") << monthly << 24 << 30 << 0 << "";
    QTest::newRow("no dates: a season of 10 rows on a rise")
        << undated([](int t) { return 0.5 * t + 3 * std::sin(2 * M_PI * t / 10); }) << 24 << 0 << 10
        << "autocorrelation";
    QTest::newRow("no dates: a season longer than the look-back")
        << undated([](int t) { return std::sin(2 * M_PI * t / 30); }) << 24 << 0 << 0 << "";
    QTest::newRow("no dates: a straight line") << undated([](int t) { return 2.0 * t; }) << 24 << 0 << 0 << "";
    QTest::newRow("no dates: a quadratic trend") << undated([](int t) { return 0.01 * t * t; }) << 24 << 0 << 0 << "";
  }
  void seasonalPeriod() {
    QFETCH(QString, csv);
    QFETCH(int, look_back);
    QFETCH(int, given);
    QFETCH(int, length);
    QFETCH(QString, source);
    const TimeSeriesTable table = parse_time_series_csv(csv.toStdString(), "series.csv");
    const SeasonalPeriod period =
        find_seasonal_period(table, {0, 100}, look_back, given ? std::optional<int>(given) : std::nullopt);
    QCOMPARE(period.length, length);
    QCOMPARE(QString::fromStdString(period.source), source);
    QVERIFY2(!period.note.empty(), "the period, or its absence, is explained");
  }

  void aGivenPeriodBelowOneIsRefused() {
    const TimeSeriesTable table = parse_time_series_csv(monthly_csv(60), "series.csv");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, find_seasonal_period(table, {0, 40}, 24, 0));
  }

  // The model's per-channel errors agree whether the CPU workers evaluate it or a batch forecaster
  // does, and their mean is the overall MSE.
  void modelErrorsPerChannelAgreeOnBothPaths() {
    LoadedForecastRun run;
    run.config = small_forecast_run();
    run.params = initial_parameters(ParameterLayout(run.config.model), 5);
    std::string csv = "load,temperature\n";
    for (int t = 0; t < 90; ++t) csv += std::to_string(std::sin(t * 0.3)) + "," + std::to_string(t * 0.1) + "\n";
    const ForecastData data = prepared(csv, 12, 4);
    const EvalMetrics by_workers = evaluate_test_windows(run, data);
    const BatchForecaster one_by_one = [&](float* y, const float* x, int batch) {
      for (int b = 0; b < batch; ++b) forecast_scaled(run, x + b * 12 * 2, y + b * 4 * 2);
    };
    const EvalMetrics by_batches = evaluate_test_windows(run, data, one_by_one, 5);
    QCOMPARE(by_workers.windows, long(data.test.sample_count()));
    compare_metrics(by_batches, by_workers.mse, by_workers.mae, by_workers.channel_mse, by_workers.channel_mae);
    compare_close((by_workers.channel_mse[0] + by_workers.channel_mse[1]) / 2, by_workers.mse,
                  "the mean of the channels' MSE");
    QVERIFY(by_workers.channel_mse[0] != by_workers.channel_mse[1]);
    const TestComparison comparison = evaluate_against_baselines(run, data, SeasonalPeriod{}, one_by_one, 3);
    compare_metrics(comparison.model.scaled, by_workers.mse, by_workers.mae, by_workers.channel_mse,
                    by_workers.channel_mae);
    QVERIFY(!comparison.seasonal_naive.has_value());
  }

  void metricsJsonKeepsTheComparison() {
    QTemporaryDir dir;
    ForecastRunMetrics written;
    written.stop = "completed";
    written.test = naive_forecast_metrics(ForecastWindows(tiny_series(), make_window_index({0, 6}, 3, 2)), kTinyShape, 1);
    written.validation = written.test;
    TestComparison comparison;
    comparison.model = in_both_units(written.test, tiny_scaler());
    comparison.last_value = comparison.model;
    comparison.last_value.original.mse = 123;
    comparison.seasonal_naive = in_both_units(
        naive_forecast_metrics(ForecastWindows(tiny_series(), make_window_index({0, 6}, 3, 2)), kTinyShape, 2),
        tiny_scaler());
    comparison.period = {2, "given", "a period of 2 rows, as given"};
    written.test_comparison = comparison;
    write_run_metrics(dir.path().toStdString(), written);
    QFile file(dir.filePath("metrics.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    const ForecastRunMetrics read = parse_run_metrics(text.toStdString(), "metrics.json");
    QCOMPARE(read.test.channel_mse, written.test.channel_mse);
    QCOMPARE(read.test.channel_mae, written.test.channel_mae);
    QVERIFY(read.test_comparison.has_value());
    QCOMPARE(read.test_comparison->model.original.channel_mse, comparison.model.original.channel_mse);
    QCOMPARE(read.test_comparison->last_value.original.mse, 123.0);
    QVERIFY(read.test_comparison->seasonal_naive.has_value());
    QCOMPARE(read.test_comparison->seasonal_naive->original.mae, comparison.seasonal_naive->original.mae);
    QCOMPARE(read.test_comparison->period.length, 2);
    QCOMPARE(read.test_comparison->period.source, std::string("given"));

    // A run written before these fields: no comparison, no per-channel errors.
    const std::string old = R"({"epochs": [], "best_epoch": 0, "stop": "completed", "message": "",
      "train_seconds": 1, "samples_per_second": 2,
      "validation": {"mse": 0.5, "mae": 0.25, "windows": 3}, "test": {"mse": 0.75, "mae": 0.5, "windows": 4}})";
    const ForecastRunMetrics before = parse_run_metrics(old, "metrics.json");
    QCOMPARE(before.test.mse, 0.75);
    QVERIFY(before.test.channel_mse.empty());
    QVERIFY(!before.test_comparison.has_value());

    // A seasonal naive row without its period (or the reverse) is a damaged file.
    std::string damaged = text.toStdString();
    const std::size_t length = damaged.find("\"length\": 2");
    QVERIFY(length != std::string::npos);
    damaged.replace(length, 11, "\"length\": 0");
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, parse_run_metrics(damaged, "metrics.json"));
  }
};

QTEST_APPLESS_MAIN(TestForecastBaselines)
#include "tst_forecast_baselines.moc"
