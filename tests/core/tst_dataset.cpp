// Preparing a loaded table for forecasting: the chronological split (fractions and the ETT months),
// the scaler fitted on training rows only, the sliding windows and their reach back across part
// boundaries, and the errors when a part is too short.
#include <QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/forecast_data.hpp"
#include "core/data/scaler.hpp"
#include "core/data/split.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/data/windows.hpp"
#include "core/forecast/forecast_windows.hpp"
#include "support/error_message.hpp"

using namespace aaren;

namespace {

constexpr double hour = 3600.0;
constexpr double first_etth1_time = 1467331200.0;  // 2016-07-01 00:00:00 UTC

std::vector<double> evenly_spaced_times(int rows, double spacing) {
  std::vector<double> times(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) times[std::size_t(i)] = first_etth1_time + spacing * i;
  return times;
}

// An ETTh1-shaped table: hourly rows, channels whose values differ by row and channel.
TimeSeriesTable synthetic_table(int rows, int channels, double spacing = hour) {
  TimeSeriesTable table;
  table.source = "synthetic.csv";
  for (int c = 0; c < channels; ++c) table.channel_names.push_back("ch" + std::to_string(c));
  table.date_column_name = "date";
  table.times = evenly_spaced_times(rows, spacing);
  table.dates.assign(std::size_t(rows), "");
  table.values = Matrix<double>(rows, channels);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < channels; ++c) table.values(r, c) = 10.0 * c + std::sin(0.01 * r * (c + 1)) + 0.001 * r;
  return table;
}

}  // namespace

class TestDataset : public QObject {
  Q_OBJECT

 private slots:
  void fraction_splits_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("split");
    QTest::addColumn<int>("train");
    QTest::addColumn<int>("validation");
    QTest::addColumn<int>("test");
    // int(17420 * 0.7), rest, int(17420 * 0.2): the sizes the Informer code gives ETTh1 as a custom data set.
    QTest::newRow("ETTh1 rows, default") << 17420 << "0.7/0.1/0.2" << 12194 << 1742 << 3484;
    QTest::newRow("100 rows") << 100 << "0.7/0.1/0.2" << 70 << 10 << 20;
    QTest::newRow("percentages") << 100 << "70/10/20" << 70 << 10 << 20;
    QTest::newRow("commas") << 10 << "0.6,0.2,0.2" << 6 << 2 << 2;
    QTest::newRow("rounding goes to validation") << 7 << "0.5/0.25/0.25" << 3 << 3 << 1;
  }

  void fraction_splits() {
    QFETCH(int, rows);
    QFETCH(QString, split);
    QFETCH(int, train);
    QFETCH(int, validation);
    QFETCH(int, test);
    const SplitSpec spec = parse_split_spec(split.toStdString());
    QCOMPARE(spec.method, SplitSpec::Method::fractions);
    const ChronologicalSplit parts = split_rows(spec, rows, {});
    QCOMPARE(parts.train, (RowRange{0, train}));
    QCOMPARE(parts.validation, (RowRange{train, train + validation}));
    QCOMPARE(parts.test, (RowRange{train + validation, rows}));
    QCOMPARE(parts.test.size(), test);
  }

  void default_split_is_70_10_20() {
    const SplitSpec spec;
    QCOMPARE(to_string(spec), std::string("0.7/0.1/0.2"));
    QCOMPARE(to_string(parse_split_spec(" ETT ")), std::string("ett"));
  }

  void bad_split_specs_are_rejected_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("sum above 1") << "0.7/0.2/0.2" << "must be positive and add up to 1";
    QTest::newRow("zero part") << "0.8/0/0.2" << "must be positive and add up to 1";
    QTest::newRow("negative part") << "-0.1/0.6/0.5" << "must be positive and add up to 1";
    QTest::newRow("two parts") << "0.7/0.3" << "has 2 parts";
    QTest::newRow("word") << "half" << "'half' is not a number";
    QTest::newRow("empty") << "" << "is not a number";
  }

  void bad_split_specs_are_rejected() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QString message = error_of<std::exception>([&] { parse_split_spec(text.toStdString()); });
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void too_few_rows_for_three_parts() {
    QCOMPARE(split_by_fractions(5, {}).test.size(), 1);
    const QString message = error_of<std::exception>([] { split_by_fractions(4, {}); });
    QVERIFY2(message.contains("4 rows are too few to split 0.7/0.1/0.2"), qPrintable(message));
  }

  void ett_split_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("spacing");
    QTest::addColumn<int>("month_rows");
    QTest::newRow("hourly, ETTh1 length") << 17420 << hour << 720;
    QTest::newRow("15 minutes, ETTm1 length") << 69680 << 15 * 60.0 << 2880;
    QTest::newRow("daily, just enough") << 600 << 24 * hour << 30;
  }

  void ett_split() {
    QFETCH(int, rows);
    QFETCH(double, spacing);
    QFETCH(int, month_rows);
    const std::vector<double> times = evenly_spaced_times(rows, spacing);
    SplitSpec spec;
    spec.method = SplitSpec::Method::ett_months;
    const ChronologicalSplit parts = split_rows(spec, rows, times);
    QCOMPARE(parts.train, (RowRange{0, 12 * month_rows}));
    QCOMPARE(parts.validation, (RowRange{12 * month_rows, 16 * month_rows}));
    QCOMPARE(parts.test, (RowRange{16 * month_rows, 20 * month_rows}));
  }

  void ett_split_on_etth1_shape_gives_8640_2880_2880() {
    const std::vector<double> times = evenly_spaced_times(17420, hour);
    const ChronologicalSplit parts = split_ett_months(times);
    QCOMPARE(parts.train.size(), 8640);
    QCOMPARE(parts.validation.size(), 2880);
    QCOMPARE(parts.test.size(), 2880);
    QCOMPARE(parts.test.end, 14400);
  }

  void rows_per_day_ignore_a_few_gaps() {
    std::vector<double> times = evenly_spaced_times(500, hour);
    for (std::size_t i = 100; i < times.size(); ++i) times[i] += hour;        // one missing hour
    for (std::size_t i = 300; i < times.size(); ++i) times[i] += 2 * hour;    // two more
    QCOMPARE(infer_rows_per_day(times), 24);
  }

  void ett_split_errors_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("spacing");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no dates") << 20000 << 0.0 << "the data has no date column";
    QTest::newRow("weekly") << 20000 << 7 * 24 * hour << "the rows are 7 days apart";
    QTest::newRow("7 hours") << 20000 << 7 * hour << "the rows are 7 hours apart";
    QTest::newRow("too short") << 10000 << hour << "needs 20 months of 30 days, 14400 rows at 24 a day, but the data has 10000";
  }

  void ett_split_errors() {
    QFETCH(int, rows);
    QFETCH(double, spacing);
    QFETCH(QString, expected);
    const std::vector<double> times = spacing > 0 ? evenly_spaced_times(rows, spacing) : std::vector<double>{};
    SplitSpec spec;
    spec.method = SplitSpec::Method::ett_months;
    const QString message = error_of<std::exception>([&] { split_rows(spec, rows, times); });
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void scaler_is_fitted_on_training_rows_only() {
    const TimeSeriesTable table = synthetic_table(1000, 3);
    ForecastDataOptions options;
    options.seq_len = 48;
    options.horizon = 24;
    const ForecastData data = prepare_forecast_data(table, options);
    QCOMPARE(data.parts.train, (RowRange{0, 700}));

    for (int c = 0; c < 3; ++c) {
      double sum = 0;
      for (int r = 0; r < 700; ++r) sum += table.values(r, c);
      const double mean = sum / 700;
      double squares = 0;
      for (int r = 0; r < 700; ++r) squares += (table.values(r, c) - mean) * (table.values(r, c) - mean);
      QVERIFY(std::abs(data.scaler.mean[std::size_t(c)] - mean) < 1e-12 * std::max(1.0, std::abs(mean)));
      QVERIFY(std::abs(data.scaler.stddev[std::size_t(c)] - std::sqrt(squares / 700)) < 1e-12);
    }

    TimeSeriesTable test_changed = table;
    test_changed.values(950, 1) += 1e6;
    test_changed.values(750, 2) -= 1e6;  // a validation row
    const ForecastData same = prepare_forecast_data(test_changed, options);
    QCOMPARE(same.scaler.mean, data.scaler.mean);
    QCOMPARE(same.scaler.stddev, data.scaler.stddev);
    QVERIFY(same.scaled(950, 1) > 1e3);

    TimeSeriesTable train_changed = table;
    train_changed.values(10, 1) += 1e6;
    const ForecastData moved = prepare_forecast_data(train_changed, options);
    QVERIFY(moved.scaler.mean[1] != data.scaler.mean[1]);
    QCOMPARE(moved.scaler.mean[0], data.scaler.mean[0]);
  }

  void scaled_training_rows_have_zero_mean_and_unit_std() {
    const ForecastData data = prepare_forecast_data(synthetic_table(1000, 2), {48, 24, {}});
    for (int c = 0; c < 2; ++c) {
      double sum = 0, squares = 0;
      for (int r = 0; r < 700; ++r) sum += data.scaled(r, c);
      for (int r = 0; r < 700; ++r) squares += double(data.scaled(r, c)) * data.scaled(r, c);
      QVERIFY(std::abs(sum / 700) < 1e-5);
      QVERIFY(std::abs(squares / 700 - 1.0) < 1e-4);
    }
  }

  void inverse_undoes_the_scaling() {
    const TimeSeriesTable table = synthetic_table(300, 4);
    std::vector<std::string> warnings;
    const StandardScaler scaler = fit_standard_scaler(table.values, {0, 200}, table.channel_names, warnings);
    QVERIFY(warnings.empty());
    std::vector<float> scaled(table.values.data.size());
    standard_scaler_transform(scaled, table.values.data, scaler);
    std::vector<double> back(scaled.size());
    standard_scaler_inverse(back, scaled, scaler);
    for (std::size_t i = 0; i < back.size(); ++i) {
      const double original = table.values.data[i];
      QVERIFY2(std::abs(back[i] - original) <= 1e-6 * std::max(1.0, std::abs(original)), qPrintable(QString::number(i)));
    }
    std::vector<double> wrong_size(5);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, standard_scaler_inverse(wrong_size, scaled, scaler));
  }

  // The one standardizer every task fits with: checked against the plain definition, with missing
  // values skipped, a constant channel and a channel with no value at all.
  void one_standardizer_skips_missing_values_and_names_constant_channels() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // (channel, value) pairs as a task would visit them: channel 0 varies, 1 is constant, 2 is empty.
    const std::vector<std::pair<std::size_t, double>> visited = {
        {0, 1.5}, {1, 7.0}, {2, nan}, {0, nan}, {1, 7.0}, {0, -2.25}, {0, 10.0}, {1, 7.0}};
    int calls = 0;
    std::vector<std::size_t> constant;
    const StandardScaler scaler = fit_standard_scaler(
        3,
        [&](const auto& visit) {
          ++calls;
          for (const auto& [channel, value] : visited) visit(channel, value);
        },
        constant);
    QCOMPARE(calls, 2);  // the means, then the deviations from them
    const std::vector<double> present = {1.5, -2.25, 10.0};
    double mean = 0, squares = 0;
    for (double x : present) mean += x / 3;
    for (double x : present) squares += (x - mean) * (x - mean);
    QVERIFY(std::abs(scaler.mean[0] - mean) <= 1e-15 * std::abs(mean));
    QVERIFY(std::abs(scaler.stddev[0] - std::sqrt(squares / 3)) <= 1e-15 * std::sqrt(squares / 3));
    QCOMPARE(scaler.mean[1], 7.0);
    QCOMPARE(scaler.stddev[1], 1.0);
    QCOMPARE(scaler.mean[2], 0.0);
    QCOMPARE(scaler.stddev[2], 1.0);
    QCOMPARE(constant, (std::vector<std::size_t>{1, 2}));
    QCOMPARE(scaler.scaled(7.0, 1), 0.0);
    QVERIFY(std::abs(scaler.scaled(mean + scaler.stddev[0], 0) - 1.0) < 1e-14);
  }

  void constant_channel_is_shifted_with_a_warning() {
    TimeSeriesTable table = synthetic_table(300, 2);
    for (int r = 0; r < 300; ++r) table.values(r, 1) = 42.0;
    table.warnings.push_back("from the file");
    const ForecastData data = prepare_forecast_data(table, {24, 12, {}});
    QCOMPARE(data.scaler.stddev[1], 1.0);
    QCOMPARE(data.scaler.mean[1], 42.0);
    QCOMPARE(data.scaled(5, 1), 0.0f);
    QCOMPARE(data.warnings.size(), std::size_t(2));
    QCOMPARE(data.warnings[0], std::string("from the file"));
    QVERIFY(QString::fromStdString(data.warnings[1]).contains("channel 'ch1' is constant over the training rows"));
  }

  void ett_forecast_data_segments_reach_back() {
    SplitSpec ett;
    ett.method = SplitSpec::Method::ett_months;
    const int seq_len = 96, horizon = 24;
    const ForecastData data = prepare_forecast_data(synthetic_table(17420, 2), {seq_len, horizon, ett});
    QCOMPARE(data.train.segment, (RowRange{0, 8640}));
    QCOMPARE(data.validation.segment, (RowRange{8640 - seq_len, 11520}));
    QCOMPARE(data.test.segment, (RowRange{11520 - seq_len, 14400}));
    QCOMPARE(data.train.sample_count(), 8640 - seq_len - horizon + 1);
    QCOMPARE(data.validation.sample_count(), 2880 - horizon + 1);
    QCOMPARE(data.test.sample_count(), 2880 - horizon + 1);
    // Every test row is a target row of some sample: the first sample predicts the part's first
    // row from the validation part's last seq_len rows; the last predicts up to the part's last row.
    QCOMPARE(data.test.input_row(0), 11520 - seq_len);
    QCOMPARE(data.test.target_row(0), 11520);
    QCOMPARE(data.test.target_row(data.test.sample_count() - 1) + horizon, 14400);
    QCOMPARE(data.table.values.rows, 17420);
    QCOMPARE(data.scaled.rows, 17420);
  }

  // Features (the Time-Series-Library's --features): M every channel in and forecast, S the target
  // alone in and out, MS every channel in and the target alone forecast.
  void features_choose_the_windows_data() {
    QTest::addColumn<QString>("features");
    QTest::addColumn<int>("inputs");        // C
    QTest::addColumn<int>("outputs");       // K
    QTest::addColumn<int>("truthChannel");  // the table's channel of the truth's first column
    QTest::newRow("M") << "M" << 3 << 3 << 0;
    QTest::newRow("S") << "S" << 1 << 1 << 1;
    QTest::newRow("MS") << "MS" << 3 << 1 << 1;
  }
  void features_choose_the_windows() {
    QFETCH(QString, features);
    QFETCH(int, inputs);
    QFETCH(int, outputs);
    QFETCH(int, truthChannel);
    TimeSeriesTable table = synthetic_table(1000, 3);
    table.target = 1;
    const Matrix<double> original = table.values;
    ForecastDataOptions options{16, 8, {}};
    options.features = *forecast_features_from_string(features.toStdString());
    const ForecastData data = prepare_forecast_data(std::move(table), options);
    QCOMPARE(data.scaled.cols, inputs);
    QCOMPARE(int(data.scaler.mean.size()), inputs);
    QCOMPARE(data.forecast_channel_count(), outputs);
    QCOMPARE(data.forecast_channel_names().size(), std::size_t(outputs));
    QCOMPARE(data.forecast_channel_names().front(), "ch" + std::to_string(truthChannel));
    QCOMPARE(data.forecast_scaler().mean.size(), std::size_t(outputs));
    if (features == "S") QCOMPARE(data.table.channel_names, std::vector<std::string>{"ch1"});
    // The table's values stay in their units; S keeps the target's column alone.
    QCOMPARE(data.table.values(5, 0), original(5, features == "S" ? 1 : 0));

    const ForecastWindows windows(data, data.test);
    std::vector<float> x(std::size_t(16 * inputs)), y(std::size_t(8 * outputs));
    const int sample = 3;
    windows.copy(sample, x.data(), y.data());
    const int first_input = data.test.input_row(sample), first_target = data.test.target_row(sample);
    for (int t = 0; t < 16; ++t)
      for (int c = 0; c < inputs; ++c) QCOMPARE(x[std::size_t(t * inputs + c)], data.scaled(first_input + t, c));
    const double target_std = data.forecast_scaler().stddev.front(), target_mean = data.forecast_scaler().mean.front();
    for (int h = 0; h < 8; ++h) {
      const double truth = original(first_target + h, truthChannel);
      QVERIFY(std::abs(double(y[std::size_t(h * outputs)]) * target_std + target_mean - truth) < 1e-4 * (1 + std::abs(truth)));
    }
  }

  void features_that_forecast_the_target_need_one_data() {
    QTest::addColumn<QString>("features");
    QTest::newRow("S") << "S";
    QTest::newRow("MS") << "MS";
  }
  void features_that_forecast_the_target_need_one() {
    QFETCH(QString, features);
    ForecastDataOptions options{16, 8, {}};
    options.features = *forecast_features_from_string(features.toStdString());
    const QString message = error_of<std::invalid_argument>([&] { prepare_forecast_data(synthetic_table(1000, 3), options); });
    QVERIFY2(message.startsWith("synthetic.csv: features " + features + " forecast the target"), qPrintable(message));
    QVERIFY2(message.contains("no target was chosen"), qPrintable(message));
    QVERIFY(!forecast_features_from_string("ms"));
    QVERIFY(!forecast_features_from_string(""));
  }

  void windows_hold_the_right_rows() {
    const ForecastData data = prepare_forecast_data(synthetic_table(1000, 3), {16, 8, {}});
    const int channels = 3, seq_len = 16, horizon = 8;
    for (const WindowIndex* index : {&data.train, &data.validation, &data.test}) {
      const std::vector<int> samples = {0, 5, index->sample_count() - 1};
      std::vector<float> inputs(samples.size() * seq_len * channels, -99.0f);
      std::vector<float> targets(samples.size() * horizon * channels, -99.0f);
      gather_windows(inputs, targets, data.scaled.data, channels, *index, samples);
      for (std::size_t b = 0; b < samples.size(); ++b) {
        const int first = index->segment.begin + samples[b];
        for (int t = 0; t < seq_len; ++t)
          for (int c = 0; c < channels; ++c)
            QCOMPARE(inputs[(b * seq_len + std::size_t(t)) * channels + std::size_t(c)], data.scaled(first + t, c));
        for (int h = 0; h < horizon; ++h)
          for (int c = 0; c < channels; ++c)
            QCOMPARE(targets[(b * horizon + std::size_t(h)) * channels + std::size_t(c)],
                     data.scaled(first + seq_len + h, c));
      }
    }
    // The validation part (rows 700..799) is reached back into from the training part.
    QCOMPARE(data.validation.segment, (RowRange{700 - seq_len, 800}));
    std::vector<float> inputs(std::size_t(seq_len) * channels), targets(std::size_t(horizon) * channels);
    const std::vector<int> first_sample = {0};
    gather_windows(inputs, targets, data.scaled.data, channels, data.validation, first_sample);
    QCOMPARE(inputs[0], data.scaled(700 - seq_len, 0));
    QCOMPARE(targets[0], data.scaled(700, 0));
  }

  void gather_rejects_bad_buffers_and_samples() {
    const ForecastData data = prepare_forecast_data(synthetic_table(300, 2), {10, 5, {}});
    std::vector<float> inputs(10 * 2), targets(5 * 2);
    const std::vector<int> past_end = {data.test.sample_count()};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             gather_windows(inputs, targets, data.scaled.data, 2, data.test, past_end));
    const std::vector<int> negative = {-1};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             gather_windows(inputs, targets, data.scaled.data, 2, data.test, negative));
    const std::vector<int> two = {0, 1};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gather_windows(inputs, targets, data.scaled.data, 2, data.test, two));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make_window_index({0, 14}, 10, 5));
    QCOMPARE(make_window_index({0, 15}, 10, 5).sample_count(), 1);
  }

  void too_short_parts_are_explained_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("split");
    QTest::addColumn<int>("seq_len");
    QTest::addColumn<int>("horizon");
    QTest::addColumn<QString>("expected");
    QTest::newRow("training") << 200 << "0.7/0.1/0.2" << 96 << 96
                              << "the training part has 140 rows but look-back 96 + horizon 96 needs at least 192; "
                                 "lower the look-back or the horizon, or use a longer file";
    QTest::newRow("validation") << 1000 << "0.7/0.1/0.2" << 96 << 150
                                << "the validation part has 100 rows but horizon 150";
    QTest::newRow("test") << 1000 << "0.6/0.3/0.1" << 96 << 200 << "the test part has 100 rows but horizon 200";
    QTest::newRow("ETT on short data") << 5000 << "ett" << 96 << 96 << "the ETT split needs 20 months of 30 days";
    QTest::newRow("zero look-back") << 1000 << "0.7/0.1/0.2" << 0 << 96 << "must both be at least 1";
  }

  void too_short_parts_are_explained() {
    QFETCH(int, rows);
    QFETCH(QString, split);
    QFETCH(int, seq_len);
    QFETCH(int, horizon);
    QFETCH(QString, expected);
    const ForecastDataOptions options{seq_len, horizon, parse_split_spec(split.toStdString())};
    const QString message = error_of<std::exception>([&] { prepare_forecast_data(synthetic_table(rows, 2), options); });
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void etth1_standard_split_when_present() {
    const QString shared = qEnvironmentVariable("AAREN_SHARED_DATASETS");
    if (shared.isEmpty()) QSKIP("AAREN_SHARED_DATASETS is not set; the ETTh1 check needs the reference data sets");
    const QString path = shared + "/reference/ett/ETTh1.csv";
    if (!QFile::exists(path)) QSKIP(qPrintable("ETTh1.csv is not at " + path + "; it is reference data, not bundled"));
    CsvReadOptions read;
    read.target = "OT";
    SplitSpec ett;
    ett.method = SplitSpec::Method::ett_months;
    const ForecastData data = prepare_forecast_data(read_time_series_csv(path.toStdString(), read), {96, 96, ett});
    QCOMPARE(data.parts.train, (RowRange{0, 8640}));
    QCOMPARE(data.parts.validation, (RowRange{8640, 11520}));
    QCOMPARE(data.parts.test, (RowRange{11520, 14400}));
    QCOMPARE(data.table.dates[std::size_t(data.parts.test.begin)], std::string("2017-10-24 00:00:00"));
    QCOMPARE(data.test.sample_count(), 2880 - 96 + 1);
    QCOMPARE(data.table.target, 6);
    QVERIFY(data.warnings.empty());
  }

  void undated_table_splits_by_fractions_only() {
    TimeSeriesTable table = synthetic_table(400, 1);
    table.times.clear();
    table.dates.clear();
    table.date_column_name.clear();
    QCOMPARE(prepare_forecast_data(table, {24, 12, {}}).test.segment, (RowRange{320 - 24, 400}));
    SplitSpec ett;
    ett.method = SplitSpec::Method::ett_months;
    const QString message = error_of<std::exception>([&] { prepare_forecast_data(table, {24, 12, ett}); });
    QVERIFY2(message.contains("no date column"), qPrintable(message));
  }
};

QTEST_GUILESS_MAIN(TestDataset)
#include "tst_dataset.moc"
