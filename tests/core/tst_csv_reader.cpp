// Loading users' CSV files: dialect detection, date forms, error messages that name the line and
// the column, gap filling, and every data set bundled in datasets/.
#include <QtTest>

#include <QDate>
#include <QTemporaryDir>

#include <malloc.h>

#include <atomic>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/data/date_parse.hpp"
#include "core/data/time_series_csv.hpp"
#include "support/test_files.hpp"

using namespace aaren;

namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split_list(const QString& list) {
  std::vector<std::string> out;
  for (const QString& item : list.split(',', Qt::SkipEmptyParts)) out.push_back(item.toStdString());
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : "|") + name;
  return out;
}

// Seconds since 1970-01-01 UTC computed by Qt's calendar, independently of the code under test.
// QDate counts years without a year 0 (-1 is 1 BC), so astronomical year y is QDate year y - 1 for y <= 0.
double qt_seconds(int astronomical_year, int month, int day, double seconds_into_day = 0) {
  const int qt_year = astronomical_year <= 0 ? astronomical_year - 1 : astronomical_year;
  const qint64 days = QDate(qt_year, month, day).toJulianDay() - QDate(1970, 1, 1).toJulianDay();
  return double(days) * 86400.0 + seconds_into_day;
}

double decimal_year_seconds(int year, double fraction) {
  const double begin = qt_seconds(year, 1, 1);
  return begin + fraction * (qt_seconds(year + 1, 1, 1) - begin);
}

// Bytes glibc's allocator has handed out and not had back, small and large (mmapped) blocks.
std::size_t bytes_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

std::string rows_of(int count, const std::string& row) {
  std::string out;
  for (int i = 0; i < count; ++i) out += row;
  return out;
}

}  // namespace

class TestCsvReader : public QObject {
  Q_OBJECT

 private slots:
  void malformed_files_name_line_and_column_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("columns");
    QTest::addColumn<QString>("target");
    QTest::addColumn<bool>("interpolate");
    QTest::addColumn<QString>("expected");
    const std::string ett_row = "2016-07-01 00:00:00,5.8,30.5\n";
    QTest::newRow("not a number") << QByteArray::fromStdString("date,HUFL,OT\n" + rows_of(15, ett_row) +
                                                               "2016-07-01 00:00:00,5.8,n/a\n")
                                  << "" << "" << false << "bad.csv, line 17, column 'OT': 'n/a' is not a number";
    QTest::newRow("missing value") << QByteArray("date,co2\n2001-01-01,1\n2001-01-02,2\n2001-01-03,3\n2001-01-04,\n")
                                   << "" << "" << false
                                   << "bad.csv, line 5, column 'co2': the value is missing (use interpolation to fill gaps)";
    QTest::newRow("too many fields") << QByteArray::fromStdString("a,b\n" + rows_of(7, "1,2\n") + "1,2,3\n") << ""
                                     << "" << false << "bad.csv, line 9: 3 fields, the header has 2";
    QTest::newRow("too few fields") << QByteArray("a,b,c\n1,2,3\n1,2\n") << "" << "" << false
                                    << "bad.csv, line 3: 2 fields, the header has 3";
    QTest::newRow("unknown column") << QByteArray("a,b,c\n1,2,3\n") << "XYZ" << "" << false
                                    << "bad.csv: unknown column 'XYZ'; the file has: a, b, c";
    QTest::newRow("unknown target") << QByteArray("a,b,c\n1,2,3\n") << "" << "XYZ" << false
                                    << "bad.csv: unknown column 'XYZ'; the file has: a, b, c";
    QTest::newRow("target not chosen") << QByteArray("date,a,OT\n2020-01-01,1,2\n") << "a" << "OT" << false
                                       << "the target 'OT' is not among the chosen columns";
    QTest::newRow("date column as channel") << QByteArray("date,a\n2020-01-01,1\n") << "date" << "" << false
                                            << "column 'date' holds the dates";
    QTest::newRow("column chosen twice") << QByteArray("a,b\n1,2\n") << "a,a" << "" << false
                                         << "column 'a' is chosen twice";
    QTest::newRow("no numeric columns") << QByteArray("name,city\nbob,paris\n") << "" << "" << false
                                        << "bad.csv: no numeric columns (the file has: name, city)";
    QTest::newRow("empty file") << QByteArray("") << "" << "" << false << "bad.csv: the file is empty";
    QTest::newRow("blank lines only") << QByteArray("\n  \r\n\n") << "" << "" << false << "bad.csv: the file is empty";
    QTest::newRow("header only") << QByteArray("date,value\n") << "" << "" << false
                                 << "bad.csv: the file has a header but no data rows";
    QTest::newRow("unclosed quote") << QByteArray("a,b\n1,2\n3,\"4\n5,6\n") << "" << "" << false
                                    << "bad.csv, line 3: the quoted field that starts here is never closed";
    QTest::newRow("impossible date") << QByteArray("date,v\n2020-01-01,1\n2020-02-30,2\n2020-01-03,3\n") << "" << ""
                                     << false << "bad.csv, line 3, column 'date': '2020-02-30' is not a date";
    QTest::newRow("missing date") << QByteArray("date,v\n2020-01-01,1\n,2\n2020-01-03,3\n") << "" << "" << false
                                  << "bad.csv, line 3, column 'date': the date is missing";
    QTest::newRow("infinity") << QByteArray("a\n1\n2\ninf\n") << "" << "" << false
                              << "bad.csv, line 4, column 'a': 'inf' is not a number";
    QTest::newRow("empty column interpolated") << QByteArray("date,a,b\n2020-01-01,1,\n2020-01-02,2,\n") << "a,b" << ""
                                               << true << "bad.csv: column 'b' has no values (every cell is empty)";
  }

  void malformed_files_name_line_and_column() {
    QFETCH(QByteArray, content);
    QFETCH(QString, columns);
    QFETCH(QString, target);
    QFETCH(bool, interpolate);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = write_file(dir, "bad.csv", content.toStdString());
    CsvReadOptions options;
    options.columns = split_list(columns);
    options.target = target.toStdString();
    if (interpolate) options.missing = CsvReadOptions::Missing::interpolate;
    try {
      read_time_series_csv(path, options);
      QFAIL("the file was accepted");
    } catch (const std::exception& e) {
      const QString message = QString::fromStdString(e.what());
      QVERIFY2(message.contains(expected), qPrintable(message));
      QVERIFY2(!message.contains(dir.path()), "messages name the file, not the whole path");
    }
  }

  void dialects_are_detected_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<char>("delimiter");
    QTest::addColumn<bool>("has_header");
    QTest::addColumn<QString>("date_column");
    QTest::addColumn<QString>("channels");
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("first_value");
    QTest::newRow("comma") << QByteArray("date,a,b\n2020-01-01,1,2\n2020-01-02,3,4\n") << ',' << true << "date"
                           << "a|b" << 2 << 1.0;
    QTest::newRow("semicolon with decimal points")
        << QByteArray("date;temp;rain\n2020-01-01;1.5;0.25\n2020-01-02;2.5;0.5\n") << ';' << true << "date"
        << "temp|rain" << 2 << 1.5;
    QTest::newRow("tab") << QByteArray("month\tx\ty\n2020-01\t1.5\t2\n2020-02\t2.5\t3\n") << '\t' << true << "month"
                         << "x|y" << 2 << 1.5;
    QTest::newRow("quoted fields with the delimiter")
        << QByteArray("\"date\",\"label, long\",\"value\"\n2020-01-01,\"a, b\",1.5\n2020-01-02,\"c \"\"q\"\", d\",2.5\n")
        << ',' << true << "date" << "value" << 2 << 1.5;
    QTest::newRow("BOM and CRLF") << QByteArray("\xEF\xBB\xBF" "date,value\r\n2020-01-01,1\r\n2020-01-02,2\r\n") << ','
                                  << true << "date" << "value" << 2 << 1.0;
    QTest::newRow("no header with dates") << QByteArray("2020-01-01,1.5,2\n2020-01-02,2.5,3\n") << ',' << false
                                          << "column 1" << "column 2|column 3" << 2 << 1.5;
    QTest::newRow("no header, numbers only") << QByteArray("1,2\n3,4\n5,6\n") << ',' << false << "" << "column 1|column 2"
                                             << 3 << 1.0;
    QTest::newRow("blank trailing lines") << QByteArray("date,value\n2020-01-01,1\n2020-01-02,2\n\n\n  \n") << ','
                                          << true << "date" << "value" << 2 << 1.0;
    QTest::newRow("spreadsheet export") << QByteArray("\"Date\";\"Sales\";;\r\n2020-01-01;10;;\r\n2020-01-02;12;;\r\n")
                                        << ';' << true << "Date" << "Sales" << 2 << 10.0;
    QTest::newRow("quoted headers") << QByteArray("\"year\",\"quarter\",\"realgdp\"\n1959,1,2710.349\n1959,2,2778.801\n")
                                    << ',' << true << "year" << "quarter|realgdp" << 2 << 1.0;
    QTest::newRow("no date column") << QByteArray("eruption,waiting\n1,80\n2,71\n") << ',' << true << ""
                                    << "eruption|waiting" << 2 << 1.0;
    QTest::newRow("month names") << QByteArray("DATE,sales\nJan-1-1995,66.19\nFeb-1-1995,65.15\n") << ',' << true
                                 << "DATE" << "sales" << 2 << 66.19;
    QTest::newRow("numeric date under a date header") << QByteArray("date,co2\n19580329,316.1\n19580405,317.3\n") << ','
                                                      << true << "date" << "co2" << 2 << 316.1;
  }

  void dialects_are_detected() {
    QFETCH(QByteArray, content);
    QFETCH(char, delimiter);
    QFETCH(bool, has_header);
    QFETCH(QString, date_column);
    QFETCH(QString, channels);
    QFETCH(int, rows);
    QFETCH(double, first_value);
    const std::string text = content.toStdString();
    const CsvDetection detection = detect_csv_text(text, "sample.csv");
    QCOMPARE(detection.delimiter, delimiter);
    QCOMPARE(detection.has_header, has_header);
    QCOMPARE(int(detection.preview_rows.size()), rows);
    const TimeSeriesTable table = parse_time_series_csv(text, "sample.csv");
    QCOMPARE(QString::fromStdString(table.date_column_name), date_column);
    QCOMPARE(QString::fromStdString(joined(table.channel_names)), channels);
    QCOMPARE(table.values.rows, rows);
    QCOMPARE(table.values(0, 0), first_value);
    QCOMPARE(int(table.dates.size()), date_column.isEmpty() ? 0 : rows);
    QCOMPARE(int(table.times.size()), date_column.isEmpty() ? 0 : rows);
  }

  void detection_reports_kinds_and_missing_cells() {
    const CsvDetection co2 = detect_csv_file(bundled("co2.csv"), {}, 5000);
    QVERIFY(co2.sampled_whole_file);
    QCOMPARE(co2.column_names, (std::vector<std::string>{"date", "co2"}));
    QCOMPARE(co2.column_kinds, (std::vector<ColumnKind>{ColumnKind::number, ColumnKind::number}));
    QCOMPARE(co2.missing_cells, (std::vector<int>{0, 59}));
    QCOMPARE(co2.date_column, 0);
    QCOMPARE(int(co2.preview_rows.size()), 2284);

    const CsvDetection mixed = detect_csv_text("when,station,value,gap\n2020-01-01,A,1,\n2020-01-02,B,,\n", "mixed.csv");
    QCOMPARE(mixed.column_kinds, (std::vector<ColumnKind>{ColumnKind::date_time, ColumnKind::text, ColumnKind::number,
                                                          ColumnKind::empty}));
    QCOMPARE(mixed.missing_cells, (std::vector<int>{0, 0, 1, 2}));
    QCOMPARE(mixed.date_column, 0);
    QCOMPARE(mixed.preview_rows.at(1).at(1), std::string("B"));

    const CsvDetection sampled = detect_csv_file(bundled("R_sunspots.csv"), {}, 10);
    QVERIFY(!sampled.sampled_whole_file);
    QCOMPARE(int(sampled.preview_rows.size()), 10);
  }

  void overrides_replace_detection() {
    const std::string semicolons = "a;b\n1;2\n3;4\n";
    QCOMPARE(detect_csv_text(semicolons, "s.csv").delimiter, ';');
    CsvDialectOverrides comma;
    comma.delimiter = ',';
    const CsvDetection forced = detect_csv_text(semicolons, "s.csv", comma);
    QCOMPARE(forced.delimiter, ',');
    QCOMPARE(forced.column_names, (std::vector<std::string>{"a;b"}));

    CsvReadOptions no_header;
    no_header.has_header = false;
    try {
      parse_time_series_csv("a,b\n1,2\n3,4\n", "h.csv", no_header);
      QFAIL("a header read as data must be reported");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("h.csv, line 1, column 'column 1': 'a' is not a number"), e.what());
    }

    const std::string years = "time,value\n1,5\n2,6\n3,7\n";
    QCOMPARE(parse_time_series_csv(years, "y.csv").channel_names, (std::vector<std::string>{"value"}));
    CsvReadOptions without_dates;
    without_dates.date_column = "";
    const TimeSeriesTable undated = parse_time_series_csv(years, "y.csv", without_dates);
    QCOMPARE(undated.channel_names, (std::vector<std::string>{"time", "value"}));
    QVERIFY(undated.times.empty());

    CsvReadOptions unknown_date;
    unknown_date.date_column = "when";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_time_series_csv(years, "y.csv", unknown_date));
    CsvReadOptions quote_delimiter;
    quote_delimiter.delimiter = '"';
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parse_time_series_csv(years, "y.csv", quote_delimiter));
  }

  void quoted_field_may_span_lines() {
    const std::string text = "date,note,value\n2020-01-01,\"line one\nline two\",1\n2020-01-02,x,2\n2020-01-03,y,\n";
    const CsvDetection detection = detect_csv_text(text, "notes.csv");
    QCOMPARE(detection.preview_rows.at(0).at(1), std::string("line one\nline two"));
    try {
      parse_time_series_csv(text, "notes.csv");
      QFAIL("the missing value was accepted");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("notes.csv, line 5, column 'value'"), e.what());
    }
  }

  void columns_target_and_warnings() {
    const std::string text =
        "date,station,HUFL,OT,gap\n2020-01-02,A,1,10,\n2020-01-03,B,2,20,\n2020-01-01,C,3,30,\n";
    const TimeSeriesTable all = parse_time_series_csv(text, "w.csv");
    QCOMPARE(all.channel_names, (std::vector<std::string>{"HUFL", "OT"}));
    QCOMPARE(all.target, -1);
    QVERIFY(any_contains(all.warnings, "column 'station' holds text and was left out"));
    QVERIFY(any_contains(all.warnings, "column 'gap' is empty and was left out"));
    QVERIFY(any_contains(all.warnings, "line 4: the date does not come after the one before it"));

    CsvReadOptions chosen;
    chosen.columns = {"ot", "HUFL"};
    chosen.target = "OT";
    const TimeSeriesTable picked = parse_time_series_csv(text, "w.csv", chosen);
    QCOMPARE(picked.channel_names, (std::vector<std::string>{"OT", "HUFL"}));
    QCOMPARE(picked.target, 0);
    QCOMPARE(picked.values(2, 0), 30.0);
    QCOMPARE(picked.values(2, 1), 3.0);
    QCOMPARE(picked.dates.at(2), std::string("2020-01-01"));
  }

  void progress_rises_to_one() {
    std::string text = "date,value\n";
    for (int i = 0; i < 5000; ++i) text += std::to_string(1000 + i) + "," + std::to_string(i) + "\n";
    std::vector<double> fractions;
    CsvReadOptions watched;
    watched.progress = [&](double fraction) { fractions.push_back(fraction); };
    QCOMPARE(parse_time_series_csv(text, "p.csv", watched).values.rows, 5000);
    QVERIFY(fractions.size() >= 4);
    QVERIFY(fractions.front() > 0);
    for (std::size_t i = 1; i < fractions.size(); ++i) QVERIFY(fractions[i] > fractions[i - 1]);
    QCOMPARE(fractions.back(), 1.0);
  }

  // The flag stops a read part-way with its own exception, and everything the read allocated is
  // freed again: after a warm-up read, four more cancelled reads leave glibc's count of the bytes in
  // use where it was, give or take malloc's cache of freed small chunks (which it counts as in use).
  // A read that kept its rows would keep hundreds of kilobytes each time. The test's own buffers
  // are reserved first so they do not count.
  void cancel_flag_stops_the_read_and_frees_everything() {
    QTemporaryDir dir;
    std::string text = "date,a,b\n";
    for (int i = 0; i < 50000; ++i)
      text += "2020-01-01 " + std::to_string(i % 24) + ":00:00," + std::to_string(i) + "," + std::to_string(i % 7) + "\n";
    const std::string path = write_file(dir, "long.csv", text);
    std::atomic<bool> cancel{false};
    std::vector<double> fractions;
    fractions.reserve(100000);
    CsvReadOptions options;
    options.cancel = &cancel;
    options.progress = [&](double fraction) {
      fractions.push_back(fraction);
      if (fraction >= 0.5) cancel.store(true);
    };
    QCOMPARE(read_time_series_csv(path, {}).values.rows, 50000);  // the same file reads in full

    std::string message;
    message.reserve(1024);
    bool cancelled = false;
    const auto cancelled_read = [&] {
      cancel.store(false);
      fractions.clear();
      cancelled = false;
      message.clear();
      try {
        (void)read_time_series_csv(path, options);
      } catch (const ReadCancelled& e) {
        cancelled = true;
        message = e.what();
      } catch (const std::exception& e) {
        message = e.what();
      }
    };
    cancelled_read();
    const std::size_t in_use_before = bytes_in_use();
    for (int read = 0; read < 4; ++read) {
      cancelled_read();
      QVERIFY2(cancelled, message.c_str());
      QCOMPARE(message, std::string("reading long.csv was cancelled"));
      QVERIFY(fractions.back() >= 0.5 && fractions.back() < 0.6);
    }
    const std::size_t in_use_after = bytes_in_use();
    constexpr std::size_t kMallocCacheSlack = 16 * 1024;
    QVERIFY2(in_use_after <= in_use_before + kMallocCacheSlack,
             qPrintable(QStringLiteral("%1 bytes more in use after four cancelled reads")
                            .arg(qlonglong(in_use_after) - qlonglong(in_use_before))));

    // Set before the read starts, the flag stops it before the first row.
    fractions.clear();
    QVERIFY_THROWS_EXCEPTION(ReadCancelled, read_time_series_csv(path, options));
    QVERIFY(fractions.empty());
  }

  void bundled_datasets_load_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("channels");
    QTest::addColumn<QString>("date_column");
    QTest::addColumn<double>("first_value");
    QTest::addColumn<QString>("warning");
    QTest::newRow("AirPassengers") << "R_AirPassengers.csv" << 144 << "AirPassengers" << "time" << 112.0 << "";
    QTest::newRow("sunspots") << "R_sunspots.csv" << 2820 << "sunspots" << "time" << 58.0 << "";
    QTest::newRow("EuStockMarkets") << "R_EuStockMarkets.csv" << 1860 << "DAX|SMI|CAC|FTSE" << "time" << 1628.75 << "";
    QTest::newRow("Seatbelts") << "R_Seatbelts.csv" << 192
                               << "DriversKilled|drivers|front|rear|kms|PetrolPrice|VanKilled|law" << "time" << 107.0
                               << "";
    QTest::newRow("nottem") << "R_nottem.csv" << 240 << "nottem" << "time" << 40.6 << "";
    QTest::newRow("co2") << "co2.csv" << 2284 << "co2" << "date" << 316.1
                         << "column 'co2': 59 missing cells filled by linear interpolation";
    // Two disasters happened on 1875-12-07: an event log may repeat a date.
    QTest::newRow("coal") << "coal_mining_disasters.csv" << 191 << "date_decimal_year" << "date_approx" << 1851.2026
                          << "line 82: the date does not come after the one before it (1 row in all)";
    QTest::newRow("geyser") << "old_faithful_geyser.csv" << 299 << "eruption|waiting_min|duration_min|t_start_min"
                            << "" << 1.0 << "";
  }

  void bundled_datasets_load() {
    QFETCH(QString, file);
    QFETCH(int, rows);
    QFETCH(QString, channels);
    QFETCH(QString, date_column);
    QFETCH(double, first_value);
    QFETCH(QString, warning);
    const std::string path = bundled(file.toStdString());
    CsvReadOptions options;
    options.missing = CsvReadOptions::Missing::interpolate;
    const TimeSeriesTable table = read_time_series_csv(path, options);
    QCOMPARE(table.values.rows, rows);
    QCOMPARE(QString::fromStdString(joined(table.channel_names)), channels);
    QCOMPARE(table.values.cols, int(table.channel_names.size()));
    QCOMPARE(QString::fromStdString(table.date_column_name), date_column);
    QCOMPARE(table.values(0, 0), first_value);
    if (!date_column.isEmpty()) {
      QCOMPARE(int(table.times.size()), rows);
      for (int i = 1; i < rows; ++i) QVERIFY2(table.times[i] >= table.times[i - 1], qPrintable(QString::number(i)));
    }
    for (double value : table.values.data) QVERIFY(std::isfinite(value));
    QCOMPARE(QString::fromStdString(joined(table.warnings)).section("; the rows", 0, 0), warning);

    const TimeSeriesTable from_text = parse_time_series_csv(read_whole(path), file.toStdString(), options);
    QCOMPARE(from_text.values.data, table.values.data);
    QCOMPARE(from_text.dates, table.dates);
  }

  void co2_gaps_error_by_default_and_interpolate_on_request() {
    const std::string path = bundled("co2.csv");
    try {
      read_time_series_csv(path);
      QFAIL("co2.csv has gaps");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("co2.csv, line 8, column 'co2': the value is missing"), e.what());
    }

    CsvReadOptions options;
    options.missing = CsvReadOptions::Missing::interpolate;
    const TimeSeriesTable table = read_time_series_csv(path, options);
    QCOMPARE(table.warnings, (std::vector<std::string>{"column 'co2': 59 missing cells filled by linear interpolation"}));

    // Which rows were gaps, read straight from the file's lines.
    std::vector<bool> gap;
    std::istringstream lines(read_whole(path));
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line)) gap.push_back(line.back() == ',');
    QCOMPARE(int(gap.size()), table.values.rows);
    int checked = 0;
    for (int begin = 0; begin < int(gap.size());) {
      if (!gap[begin]) {
        ++begin;
        continue;
      }
      int end = begin;
      while (end < int(gap.size()) && gap[end]) ++end;
      QVERIFY(begin > 0 && end < int(gap.size()));  // co2's gaps all lie inside the series
      const double left = table.values(begin - 1, 0);
      const double right = table.values(end, 0);
      for (int r = begin; r < end; ++r) {
        const double value = table.values(r, 0);
        if (left != right) QVERIFY(std::min(left, right) < value && value < std::max(left, right));
        const double expected = left + (right - left) * double(r - begin + 1) / double(end - begin + 1);
        QVERIFY(std::abs(value - expected) < 1e-9);
        ++checked;
      }
      begin = end;
    }
    QCOMPARE(checked, 59);
  }

  void gaps_at_the_edges_are_held_constant() {
    CsvReadOptions options;
    options.missing = CsvReadOptions::Missing::interpolate;
    const TimeSeriesTable table = parse_time_series_csv("a,b\n,1\n2,NA\n,3\n4,\n6,\n", "edges.csv", options);
    QCOMPARE(table.values.data, (std::vector<double>{2, 1, 2, 2, 3, 3, 4, 3, 6, 3}));
    QCOMPARE(table.warnings.size(), std::size_t(2));
  }

  void dates_parse_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::newRow("ISO date") << "2016-07-01" << qt_seconds(2016, 7, 1);
    QTest::newRow("slashes") << "2016/07/01" << qt_seconds(2016, 7, 1);
    QTest::newRow("single-digit month and day") << "2016-7-1" << qt_seconds(2016, 7, 1);
    QTest::newRow("date-time with space") << "2016-07-01 13:45:30" << qt_seconds(2016, 7, 1, 13 * 3600 + 45 * 60 + 30);
    QTest::newRow("date-time with T") << "2016-07-01T13:45:30" << qt_seconds(2016, 7, 1, 13 * 3600 + 45 * 60 + 30);
    QTest::newRow("minutes only") << "2016-07-01 13:45" << qt_seconds(2016, 7, 1, 13 * 3600 + 45 * 60);
    QTest::newRow("fractional seconds") << "2016-07-01 00:00:00.5" << qt_seconds(2016, 7, 1, 0.5);
    QTest::newRow("UTC") << "2016-07-01T13:45:30Z" << qt_seconds(2016, 7, 1, 13 * 3600 + 45 * 60 + 30);
    QTest::newRow("offset") << "2016-07-01T15:45:30+02:00" << qt_seconds(2016, 7, 1, 13 * 3600 + 45 * 60 + 30);
    QTest::newRow("offset without colon") << "2016-07-01T10:45:30-0300" << qt_seconds(2016, 7, 1, 13 * 3600 + 45 * 60 + 30);
    QTest::newRow("leap day") << "2016-02-29" << qt_seconds(2016, 2, 29);
    QTest::newRow("month") << "1949-01" << qt_seconds(1949, 1, 1);
    QTest::newRow("quarter") << "1960-Q3" << qt_seconds(1960, 7, 1);
    QTest::newRow("quarter with space") << "1960 Q4" << qt_seconds(1960, 10, 1);
    QTest::newRow("YYYYMMDD") << "19580329" << qt_seconds(1958, 3, 29);
    QTest::newRow("year") << "1991" << qt_seconds(1991, 1, 1);
    QTest::newRow("small year") << "47" << qt_seconds(47, 1, 1);
    QTest::newRow("negative year") << "-6000" << qt_seconds(-6000, 1, 1);
    QTest::newRow("year zero") << "0" << qt_seconds(0, 1, 1);
    QTest::newRow("decimal year") << "1991.5" << decimal_year_seconds(1991, 0.5);
    QTest::newRow("decimal leap year") << "2000.25" << decimal_year_seconds(2000, 0.25);
    QTest::newRow("R decimal year") << "1991.49615" << decimal_year_seconds(1991, 0.49615);
    QTest::newRow("negative decimal year") << "-0.5" << decimal_year_seconds(-1, 0.5);
    QTest::newRow("blanks around") << "  1949-01 " << qt_seconds(1949, 1, 1);
    QTest::newRow("before 1970") << "1851-03-16" << qt_seconds(1851, 3, 16);
    QTest::newRow("month name first") << "Jan-1-1995" << qt_seconds(1995, 1, 1);
    QTest::newRow("day first") << "21-Mar-1995" << qt_seconds(1995, 3, 21);
    QTest::newRow("written out") << "September 5, 2001" << qt_seconds(2001, 9, 5);
    QTest::newRow("Sept") << "Sept 5 2001" << qt_seconds(2001, 9, 5);
    QTest::newRow("month name with time") << "01 Jul 2016 13:00" << qt_seconds(2016, 7, 1, 13 * 3600);
    QTest::newRow("month name and year") << "Jul 2016" << qt_seconds(2016, 7, 1);
    QTest::newRow("day first with dots") << "01.07.2016" << qt_seconds(2016, 7, 1);
    QTest::newRow("day first with dots, short") << "1.7.2016" << qt_seconds(2016, 7, 1);
    QTest::newRow("day first with dots and time") << "31.12.1999 23:59:30" << qt_seconds(1999, 12, 31, 86370);
  }

  void dates_parse() {
    QFETCH(QString, text);
    QFETCH(double, expected);
    const std::optional<double> seconds = parse_date_time(text.toStdString());
    QVERIFY(seconds.has_value());
    QVERIFY2(std::abs(*seconds - expected) < 1e-3, qPrintable(QString::number(*seconds - expected)));
  }

  void impossible_dates_are_rejected_data() {
    QTest::addColumn<QString>("text");
    for (const char* text : {"", "abc", "2016-02-30", "2015-02-29", "2016-13", "2016-00-10", "2016-Q5", "2016-Q0",
                             "2016-07-01 25:00", "2016-07-01 12:60", "2016-07-01T", "2016-07-01 12", "20161301",
                             "1234567", "1991.5e3", "2016/07", "2016-07-01 12:00:00 UTC", "1,5", "--2016", "Foo-1-1995",
                             "Feb-30-1995", "Jan-1995-1", "Ja-1-1995", "May", "30.02.2016", "01.13.2016", "01.07.16",
                             "1.234.567", "01.07.2016T13:00"})
      QTest::newRow(text) << text;
  }

  void impossible_dates_are_rejected() {
    QFETCH(QString, text);
    QVERIFY(!parse_date_time(text.toStdString()).has_value());
  }

  void numbers_are_dates_only_by_header() {
    QVERIFY(parse_date_time("2016").has_value());
    QVERIFY(!parse_non_numeric_date_time("2016").has_value());
    QVERIFY(!parse_non_numeric_date_time("20160701").has_value());
    QVERIFY(parse_non_numeric_date_time("2016-07").has_value());
    QVERIFY(header_names_a_date("Date"));
    QVERIFY(header_names_a_date("Datum"));
    QVERIFY(header_names_a_date("Fecha"));
    QVERIFY(header_names_a_date("date_approx"));
    QVERIFY(header_names_a_date("Timestamp"));
    QVERIFY(header_names_a_date("YEAR"));
    QVERIFY(!header_names_a_date("t_start_min"));
    QVERIFY(!header_names_a_date("update"));
    // A header-less column of counts must not be mistaken for years.
    QCOMPARE(detect_csv_text("1,5\n2,6\n3,7\n", "n.csv").date_column, -1);
  }

  void etth1_loads_when_present() {
    const QString shared = qEnvironmentVariable("AAREN_SHARED_DATASETS");
    if (shared.isEmpty()) QSKIP("AAREN_SHARED_DATASETS is not set; the ETTh1 check needs the reference data sets");
    const QString path = shared + "/reference/ett/ETTh1.csv";
    if (!QFile::exists(path)) QSKIP(qPrintable("ETTh1.csv is not at " + path + "; it is reference data, not bundled"));
    CsvReadOptions options;
    options.target = "OT";
    const TimeSeriesTable table = read_time_series_csv(path.toStdString(), options);
    QCOMPARE(table.values.rows, 17420);
    QCOMPARE(table.values.cols, 7);
    QCOMPARE(table.channel_names,
             (std::vector<std::string>{"HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT"}));
    QCOMPARE(table.target, 6);
    QCOMPARE(table.date_column_name, std::string("date"));
    QCOMPARE(table.dates.front(), std::string("2016-07-01 00:00:00"));
    QCOMPARE(table.times.front(), qt_seconds(2016, 7, 1));
    QCOMPARE(table.times[1] - table.times[0], 3600.0);
    QVERIFY(table.warnings.empty());
  }
};

QTEST_GUILESS_MAIN(TestCsvReader)
#include "tst_csv_reader.moc"
