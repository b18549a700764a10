// The files people really bring: European CSV (semicolons and decimal commas, as Excel writes it in
// German, French, Spanish or Italian settings), quoted decimal commas, thousands groups, byte order
// marks and CRLF, single-byte encodings; and the ones that are not text at all (images, programs,
// archives, UTF-16), refused at once by every reader with what they look like.
#include <QtTest>

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/csv_cells.hpp"
#include "core/data/csv_dialect.hpp"
#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"
#include "core/io/file_line_error.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/io/text_content.hpp"

using namespace aaren;

Q_DECLARE_METATYPE(std::vector<double>)

namespace {

std::string write_file(const QTemporaryDir& dir, const std::string& name, const QByteArray& bytes) {
  const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.constData(), bytes.size());
  return path;
}

std::optional<char> mark_option(const QString& mark) {
  if (mark.isEmpty()) return std::nullopt;
  return mark.front().toLatin1();
}

// What a reader throws, or "" when it accepts.
template <class Read>
QString message_of(Read read) {
  try {
    read();
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

QByteArray bytes(const char* data, int size) { return QByteArray(data, size); }

}  // namespace

class TestFileVariants : public QObject {
  Q_OBJECT

 private slots:
  void numbers_with_either_mark_data() {
    QTest::addColumn<QString>("cell");
    QTest::addColumn<QString>("mark");
    QTest::addColumn<bool>("is_number");
    QTest::addColumn<double>("value");
    QTest::newRow("point") << "1.5" << "." << true << 1.5;
    QTest::newRow("comma") << "1,5" << "," << true << 1.5;
    QTest::newRow("comma, negative") << "-2,25" << "," << true << -2.25;
    QTest::newRow("comma, exponent") << "1,5E-3" << "," << true << 1.5e-3;
    QTest::newRow("comma, thousands points") << "1.234.567,5" << "," << true << 1234567.5;
    QTest::newRow("point, thousands commas") << "1,234,567.5" << "." << true << 1234567.5;
    QTest::newRow("point, '1,250' as thousands") << "1,250" << "." << true << 1250.0;
    QTest::newRow("comma, '1.250' as thousands") << "1.250" << "," << true << 1250.0;
    QTest::newRow("integer with a comma mark") << "42" << "," << true << 42.0;
    QTest::newRow("blanks around a comma") << "  3,5 " << "," << true << 3.5;
    QTest::newRow("point under a comma mark") << "1.5" << "," << false << 0.0;
    QTest::newRow("comma under a point mark") << "1,5" << "." << false << 0.0;
    QTest::newRow("badly grouped") << "12,34,567" << "." << false << 0.0;
    QTest::newRow("group after a leading zero") << "0.123,5" << "," << false << 0.0;
    QTest::newRow("two marks") << "1,5,5" << "," << false << 0.0;
    QTest::newRow("mark without digits") << "1," << "," << false << 0.0;
    QTest::newRow("text") << "n/a" << "," << false << 0.0;
    QTest::newRow("infinity") << "inf" << "," << false << 0.0;
  }

  void numbers_with_either_mark() {
    QFETCH(QString, cell);
    QFETCH(QString, mark);
    QFETCH(bool, is_number);
    QFETCH(double, value);
    const std::optional<double> parsed = parse_number_cell(cell.toStdString(), mark.front().toLatin1());
    QCOMPARE(parsed.has_value(), is_number);
    if (is_number) QCOMPARE(*parsed, value);
  }

  // Files that are read, with how: the delimiter, the decimal mark, the channels and their values.
  void accepted_variants_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mark_override");
    QTest::addColumn<char>("delimiter");
    QTest::addColumn<char>("mark");
    QTest::addColumn<QByteArray>("channels");  // as the header spells them, "|" between
    QTest::addColumn<std::vector<double>>("values");  // (rows, channels) row-major
    QTest::newRow("Excel de-DE: semicolons and decimal commas")
        << QByteArray("Datum;Wert;Temperatur\n2020-01-01;1,5;-2,25\n2020-01-02;2,75;3\n") << "" << ';' << ','
        << QByteArray("Wert|Temperatur") << std::vector<double>{1.5, -2.25, 2.75, 3};
    QTest::newRow("Excel de-DE with German dates")
        << QByteArray("Datum;Umsatz\n01.07.2016;1.234,50\n02.07.2016;987,25\n") << "" << ';' << ','
        << QByteArray("Umsatz") << std::vector<double>{1234.5, 987.25};
    QTest::newRow("decimal commas without a header")
        << QByteArray("1,5;2,25\n3,5;4,25\n5,5;6,25\n") << "" << ';' << ',' << QByteArray("column 1|column 2")
        << std::vector<double>{1.5, 2.25, 3.5, 4.25, 5.5, 6.25};
    QTest::newRow("quoted decimal commas in a comma file")
        << QByteArray("date,value\n2020-01-01,\"1,5\"\n2020-01-02,\"2,25\"\n") << "" << ',' << ',' << QByteArray("value")
        << std::vector<double>{1.5, 2.25};
    QTest::newRow("thousands points and a decimal comma")
        << QByteArray("date;v\n2020-01-01;1.234,5\n2020-01-02;2,5\n") << "" << ';' << ',' << QByteArray("v")
        << std::vector<double>{1234.5, 2.5};
    QTest::newRow("exponents with decimal commas")
        << QByteArray("a;b\n1,5E-3;2\n2,5e2;3\n") << "" << ';' << ',' << QByteArray("a|b") << std::vector<double>{1.5e-3, 2, 250, 3};
    QTest::newRow("thousands commas and a decimal point")
        << QByteArray("date,v\n2020-01-01,\"1,234.5\"\n2020-01-02,2.5\n") << "" << ',' << '.' << QByteArray("v")
        << std::vector<double>{1234.5, 2.5};
    QTest::newRow("UTF-8 BOM, CRLF and decimal commas")
        << QByteArray("\xEF\xBB\xBF" "date;value\r\n2020-01-01;1,5\r\n2020-01-02;2,5\r\n") << "" << ';' << ','
        << QByteArray("value") << std::vector<double>{1.5, 2.5};
    QTest::newRow("Latin-1 header (Windows-1252 export)")
        << QByteArray("Temp\xe9rature;D\xfc" "bel\n1,5;2\n2,5;3\n") << "" << ';' << ',' << QByteArray("Temp\xc3\xa9rature|D\xc3\xbc" "bel")
        << std::vector<double>{1.5, 2, 2.5, 3};
    QTest::newRow("plain integers with semicolons") << QByteArray("a;b\n1;2\n3;4\n") << "" << ';' << '.' << QByteArray("a|b")
                                                    << std::vector<double>{1, 2, 3, 4};
    QTest::newRow("'1,250' read as 1.25 when told") << QByteArray("date;v\n2020-01-01;1,250\n2020-01-02;2,500\n")
                                                    << "," << ';' << ',' << QByteArray("v") << std::vector<double>{1.25, 2.5};
    QTest::newRow("'1,250' read as 1250 when told") << QByteArray("date;v\n2020-01-01;1,250\n2020-01-02;2,500\n")
                                                    << "." << ';' << '.' << QByteArray("v") << std::vector<double>{1250, 2500};
  }

  void accepted_variants() {
    QFETCH(QByteArray, content);
    QFETCH(QString, mark_override);
    QFETCH(char, delimiter);
    QFETCH(char, mark);
    QFETCH(QByteArray, channels);
    QFETCH(std::vector<double>, values);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = write_file(dir, "good.csv", content);
    CsvReadOptions options;
    options.decimal_mark = mark_option(mark_override);
    const CsvDetection detection = detect_csv_file(path, {std::nullopt, std::nullopt, std::nullopt, options.decimal_mark});
    QCOMPARE(detection.delimiter, delimiter);
    QCOMPARE(detection.decimal_mark, mark);
    QVERIFY2(detection.decimal_mark_ambiguity.empty(), detection.decimal_mark_ambiguity.c_str());
    const TimeSeriesTable table = read_time_series_csv(path, options);
    QCOMPARE(table.decimal_mark, mark);
    std::string names;
    for (const std::string& name : table.channel_names) names += (names.empty() ? "" : "|") + name;
    QCOMPARE(names, channels.toStdString());
    QCOMPARE(table.values.data, values);
  }

  // Files that are refused, with the exact message. The name is the file's, never its folder.
  void refused_variants_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mark_override");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("line");  // of the FileLineError; 0 when the fault is the whole file's
    QTest::newRow("ambiguous: only thousands-like commas")
        << QByteArray("date;v\n2020-01-01;1,250\n2020-01-02;2,500\n") << ""
        << "bad.csv: the decimal mark cannot be told from the numbers: line 2 has '1,250', a fraction with one mark "
           "and a thousands group with the other; say which decimal mark the file uses"
        << 0;
    QTest::newRow("ambiguous: thousands-like points in a semicolon file")
        << QByteArray("a;b\n1.250;7\n2.500;8\n") << ""
        << "bad.csv: the decimal mark cannot be told from the numbers: line 2 has '1.250', a fraction with one mark "
           "and a thousands group with the other; say which decimal mark the file uses"
        << 0;
    QTest::newRow("ambiguous: both marks") << QByteArray("a;b\n1.5;2\n3;2,5\n") << ""
                                           << "bad.csv: the numbers use both decimal marks: line 2 has '1.5' and "
                                              "line 3 has '2,5'; say which decimal mark the file uses"
                                           << 0;
    QTest::newRow("decimal commas read with a point")
        << QByteArray("a;b\n1,5;2\n") << "."
        << "bad.csv, line 2, column 'a': '1,5' is not a number with the decimal mark '.' (the decimal mark chosen "
           "for this file; choose ',' if it writes numbers like this)"
        << 2;
    QTest::newRow("decimal points read with a comma")
        << QByteArray("a;b\n1;2\n1.5;2\n") << ","
        << "bad.csv, line 3, column 'a': '1.5' is not a number with the decimal mark ',' (the decimal mark chosen "
           "for this file; choose '.' if it writes numbers like this)"
        << 3;
    QTest::newRow("PNG image") << bytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10", 20) << ""
                               << "bad.csv is not a text file (it starts like a PNG image)" << 0;
    QTest::newRow("ELF program") << bytes("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0", 20) << ""
                                 << "bad.csv is not a text file (it starts like an ELF program or library)" << 0;
    QTest::newRow("gzip archive") << bytes("\x1f\x8b\x08\0\0\0\0\0\0\x03\xed\xbd", 12) << ""
                                  << "bad.csv is not a text file (it starts like a gzip archive (unpack it first))" << 0;
    QTest::newRow("xlsx workbook") << bytes("PK\x03\x04\x14\0\x06\0\x08\0\0\0!\0", 14) << ""
                                   << "bad.csv is not a text file (it starts like a ZIP archive, as .xlsx and .ods "
                                      "workbooks are (save the sheet as CSV))"
                                   << 0;
    QTest::newRow("UTF-16 without BOM") << bytes("d\0a\0t\0e\0,\0v\0\n\0" "1\0,\0" "2\0\n\0", 22) << ""
                                        << "bad.csv is not a text file (it is UTF-16 text without a byte order mark: "
                                           "save it as UTF-8)"
                                        << 0;
    QTest::newRow("UTF-16 with BOM") << bytes("\xff\xfe" "a\0,\0b\0\n\0", 10) << ""
                                     << "bad.csv is not a text file (it is UTF-16 text: save it as UTF-8)" << 0;
    QTest::newRow("NUL byte in text") << bytes("date,v\n2020-01-01,1\0\n", 21) << ""
                                      << "bad.csv is not a text file (it holds a NUL byte at byte 20)" << 0;
    QTest::newRow("random bytes") << QByteArray("\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\xf8\xa1\xa1\xa1\xa1\xfe\xff")
                                  << ""
                                  << "bad.csv is not a text file (most of its first bytes are neither UTF-8 nor "
                                     "plain text)"
                                  << 0;
    QTest::newRow("control bytes") << QByteArray("a,b\n\x01\x02,\x03\n\x04\x05,6\n") << ""
                                   << "bad.csv is not a text file (it holds control bytes that text does not, the "
                                      "first at byte 5)"
                                   << 0;
  }

  void refused_variants() {
    QFETCH(QByteArray, content);
    QFETCH(QString, mark_override);
    QFETCH(QString, expected);
    QFETCH(int, line);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = write_file(dir, "bad.csv", content);
    CsvReadOptions options;
    options.decimal_mark = mark_option(mark_override);
    try {
      read_time_series_csv(path, options);
      QFAIL("the file was accepted");
    } catch (const FileLineError& e) {
      QCOMPARE(QString::fromStdString(e.what()), expected);
      QCOMPARE(e.line(), line);
    } catch (const std::exception& e) {
      QCOMPARE(QString::fromStdString(e.what()), expected);
      QCOMPARE(0, line);
    }
    // The same text handed over in memory is judged the same way.
    const QString in_memory = message_of([&] { parse_time_series_csv(content.toStdString(), "bad.csv", options); });
    QCOMPARE(in_memory, expected);
  }

  // Event logs, attention matrices and the detection behind the Data page's preview refuse what
  // is not text before reading a line of it.
  void every_reader_refuses_what_is_not_text() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string png = write_file(dir, "plot.png", bytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    const QString expected = "plot.png is not a text file (it starts like a PNG image)";
    QCOMPARE(message_of([&] { detect_csv_file(png); }), expected);
    QCOMPARE(message_of([&] { read_event_log(png); }), expected);
    QCOMPARE(message_of([&] { detect_event_columns(png); }), expected);
    QVERIFY(message_of([&] { read_matrix_csv(png); }).endsWith("plot.png is not a text file (it starts like a PNG image)"));
    // A large binary file is judged by its first bytes, not read whole first.
    QByteArray huge(16 << 20, '\x01');
    huge.prepend("\x1f\x8b");
    const std::string gz = write_file(dir, "data.csv.gz", huge);
    QCOMPARE(message_of([&] { read_time_series_csv(gz); }),
             QString("data.csv.gz is not a text file (it starts like a gzip archive (unpack it first))"));
  }

  void text_that_only_looks_odd_is_text_data() {
    QTest::addColumn<QByteArray>("head");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("header starting with MZ") << QByteArray("MZ,value\n1,2\n");
    QTest::newRow("header starting with BZh") << QByteArray("BZh9,x\n1,2\n");
    QTest::newRow("Ctrl-Z at the end (DOS)") << QByteArray("a,b\n1,2\n\x1a");
    QTest::newRow("one stray control byte") << QByteArray("a,b\n1,\x07" "2\n3,4\n");
    QTest::newRow("UTF-8 accents") << QByteArray("Temp\xc3\xa9rature,x\n1,2\n");
    QTest::newRow("UTF-8 cut inside a character") << QByteArray("abc\xc3");
  }

  void text_that_only_looks_odd_is_text() {
    QFETCH(QByteArray, head);
    const std::optional<std::string> why = describe_non_text(std::string_view(head.constData(), std::size_t(head.size())));
    QVERIFY2(!why, why ? why->c_str() : "");
  }

  // The dates of a German export are the date column, day first.
  void dotted_dates_are_the_date_column() {
    const TimeSeriesTable table = parse_time_series_csv("Datum;Wert\n31.12.2019;1,5\n01.01.2020 06:00;2,5\n", "de.csv");
    QCOMPARE(table.date_column_name, std::string("Datum"));
    QCOMPARE(table.times.size(), std::size_t(2));
    QCOMPARE(table.times[1] - table.times[0], 30.0 * 3600.0);
  }

  void windows_1252_becomes_utf8_data() {
    QTest::addColumn<QByteArray>("single_byte");
    QTest::addColumn<QByteArray>("utf8");
    QTest::newRow("ASCII") << QByteArray("plain") << QByteArray("plain");
    QTest::newRow("Latin-1 letters") << QByteArray("Temp\xe9rature D\xfc" "bel") << QByteArray("Temp\xc3\xa9rature D\xc3\xbc" "bel");
    QTest::newRow("euro sign and dashes") << QByteArray("\x80 \x96 \x97") << QByteArray("\xe2\x82\xac \xe2\x80\x93 \xe2\x80\x94");
  }

  void windows_1252_becomes_utf8() {
    QFETCH(QByteArray, single_byte);
    QFETCH(QByteArray, utf8);
    const std::string converted = utf8_from_windows_1252(single_byte.toStdString());
    QCOMPARE(QByteArray::fromStdString(converted), utf8);
    QVERIFY(is_valid_utf8(converted));
    QCOMPARE(is_valid_utf8(single_byte.toStdString()), single_byte == utf8);
    QVERIFY(!is_valid_utf8("abc\xc3"));  // cut inside a character
  }

  // The warning says why the names look other than the bytes of the file.
  void a_windows_1252_header_is_named_in_utf8_with_a_remark() {
    const TimeSeriesTable table = parse_time_series_csv("Temp\xe9rature;x\n1,5;2\n2,5;3\n", "fr.csv");
    QCOMPARE(table.channel_names.front(), std::string("Temp\xc3\xa9rature"));
    QVERIFY(std::find(table.warnings.begin(), table.warnings.end(),
                      "the header is not UTF-8; its names were read as Windows-1252 (Latin-1)") != table.warnings.end());
    CsvReadOptions by_name;
    by_name.columns = {"Temp\xc3\xa9rature"};
    QCOMPARE(parse_time_series_csv("Temp\xe9rature;x\n1,5;2\n", "fr.csv", by_name).values.data, std::vector<double>{1.5});
  }

  void event_logs_read_decimal_commas() {
    const EventLog log = parse_event_log("seq;time;size\na;0,5;1,25\na;1,75;2,5\nb;0,25;3\n", "q.csv");
    QCOMPARE(log.sequences.size(), std::size_t(2));
    QCOMPARE(log.sequences[0].times, (std::vector<double>{0.5, 1.75}));
    QCOMPARE(log.sequences[0].features, (std::vector<double>{1.25, 2.5}));
    try {
      EventLogOptions by_time;
      by_time.time_column = "time";
      parse_event_log("time;v\n0,5;1\n0,25;2\n", "q.csv", by_time);
      QFAIL("a time going back was accepted");
    } catch (const FileLineError& e) {
      QCOMPARE(e.line(), 3);
      QVERIFY2(QString(e.what()).startsWith("q.csv, line 3, column 'time': 0,25 is earlier"), e.what());
    }
  }

  // The Data page scrolls its preview to a failing line: every preview row knows its file line,
  // across blank lines and a quoted field that spans two.
  void preview_rows_know_their_lines() {
    const CsvDetection d = detect_csv_text("a,note\n1,x\n\n2,\"two\nlines\"\n3,y\n", "p.csv");
    QCOMPARE(d.preview_lines, (std::vector<int>{2, 4, 6}));
    QCOMPARE(d.preview_rows.size(), d.preview_lines.size());
  }

  void an_ambiguous_file_names_the_override() {
    const CsvDetection d = detect_csv_text("a;b\n1,250;3\n", "x.csv");
    QCOMPARE(d.decimal_mark, '.');
    QVERIFY(!d.decimal_mark_ambiguity.empty());
    QVERIFY_THROWS_EXCEPTION(AmbiguousDecimalMark, parse_time_series_csv("a;b\n1,250;3\n", "x.csv"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             detect_csv_text("v\n1\n", "x.csv", {std::nullopt, std::nullopt, std::nullopt, ';'}));
  }
};

QTEST_GUILESS_MAIN(TestFileVariants)
#include "tst_file_variants.moc"
