// Classification data sets as CSV (core/classify/classification_csv.hpp): the long layout (rows of
// a case grouped by case_id in first-seen order and sorted by timestep) and the wide one (a row per
// case, trailing empty cells for shorter cases), unlabelled files, missing values, the forms real
// exports take (quotes, ';', CRLF, a byte order mark), the choice of layout by the header, and the
// exact message with line and column for each kind of malformed file.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <string>
#include <vector>

#include "core/classify/classification_csv.hpp"
#include "core/classify/labelled_series.hpp"
#include "core/io/file_line_error.hpp"
#include "support/error_message.hpp"
#include "support/test_files.hpp"

using namespace aaren;

namespace {

// Values with NaN written as -999, so that QCOMPARE can compare whole cases.
std::vector<double> with_nan_as(const std::vector<double>& values, double marker = -999) {
  std::vector<double> out = values;
  for (double& v : out)
    if (std::isnan(v)) v = marker;
  return out;
}

}  // namespace

class TestClassificationCsv : public QObject {
  Q_OBJECT

 private slots:
  void longRowsAreGroupedByCaseAndSortedByTimestep() {
    const LabelledSeriesSet set = parse_classification_csv(
        "case_id,label,timestep,dim_0,dim_1\n"
        "b,walk,1,3,30\n"
        "a,run,0,1,10\n"
        "b,walk,0,2,20\n"
        "a,run,2,NA,12\n"
        "a,run,1,,11\n",
        "Gait_TRAIN.csv");
    QCOMPARE(set.source, std::string("Gait_TRAIN.csv"));
    QCOMPARE(set.problem_name, std::string("Gait_TRAIN"));
    QCOMPARE(set.dims, 2);
    QCOMPARE(set.class_names, (std::vector<std::string>{"walk", "run"}));
    QCOMPARE(set.series.size(), std::size_t(2));
    QCOMPARE(set.series[0].case_id, std::string("b"));
    QCOMPARE(set.series[0].length, 2);
    QCOMPARE(set.series[0].label, 0);
    QCOMPARE(set.series[0].values, (std::vector<double>{2, 20, 3, 30}));
    QCOMPARE(set.series[1].case_id, std::string("a"));
    QCOMPARE(set.series[1].length, 3);
    QCOMPARE(set.series[1].label, 1);
    QCOMPARE(with_nan_as(set.series[1].values), (std::vector<double>{1, 10, -999, 11, -999, 12}));
    QVERIFY(set.has_labels());
    QCOMPARE(set.class_counts(), (std::vector<long>{1, 1}));
    QCOMPARE(set.max_length(), 3);
  }

  void longTimestepsMayStartAnywhereAndCasesDifferInLength() {
    const LabelledSeriesSet set =
        parse_classification_csv("CASE_ID,Label,TimeStep,x\n7,1,1,0.5\n7,1,2,1.5\n8,2,5,-2\n", "steps.csv");
    QCOMPARE(set.series.size(), std::size_t(2));
    QCOMPARE(set.series[0].values, (std::vector<double>{0.5, 1.5}));
    QCOMPARE(set.series[1].values, (std::vector<double>{-2}));
    QCOMPARE(set.class_names, (std::vector<std::string>{"1", "2"}));
  }

  void unlabelledLongCasesHaveNoLabel() {
    const LabelledSeriesSet set =
        parse_classification_csv("case_id,label,timestep,dim_0\na,,0,1\nb,,0,2\n", "unlabelled.csv");
    QCOMPARE(set.series.size(), std::size_t(2));
    QCOMPARE(set.series[0].label, -1);
    QCOMPARE(set.series[1].label, -1);
    QVERIFY(set.class_names.empty());
    QVERIFY(!set.has_labels());
  }

  void wideRowsEndAtTheirLastValue() {
    const LabelledSeriesSet set = parse_classification_csv(
        "label,t0,t1,t2,t3\n"
        "yes,1,2,3,4\n"
        "no,5,,7,\n"
        "yes,8,,,\n"
        "no,9,NA,,,\n",
        "wide.csv");
    QCOMPARE(set.dims, 1);
    QCOMPARE(set.class_names, (std::vector<std::string>{"yes", "no"}));
    QCOMPARE(set.series.size(), std::size_t(4));
    QCOMPARE(set.series[0].case_id, std::string("1"));
    QCOMPARE(set.series[3].case_id, std::string("4"));
    QCOMPARE(set.series[0].values, (std::vector<double>{1, 2, 3, 4}));
    QCOMPARE(with_nan_as(set.series[1].values), (std::vector<double>{5, -999, 7}));
    QCOMPARE(set.series[2].values, (std::vector<double>{8}));
    // "NA" is a missing value, not the end of the case.
    QCOMPARE(with_nan_as(set.series[3].values), (std::vector<double>{9, -999}));
    QCOMPARE(set.series[1].label, 1);
    QCOMPARE(set.class_counts(), (std::vector<long>{2, 2}));
    QCOMPARE(set.max_length(), 4);
  }

  void unlabelledWideCasesHaveNoLabel() {
    const LabelledSeriesSet set = parse_classification_csv("label,t0,t1\n,1,2\n,3\n", "w.csv");
    QCOMPARE(set.series.size(), std::size_t(2));
    QCOMPARE(set.series[1].values, (std::vector<double>{3}));
    QVERIFY(!set.has_labels());
    QVERIFY(set.class_names.empty());
  }

  void quotesSemicolonsCrlfAndByteOrderMarkAreRead() {
    const LabelledSeriesSet set = parse_classification_csv(
        "\xEF\xBB\xBF"
        "case_id;label;timestep;dim_0 \r\n"
        "\r\n"
        "\"x;1\" ; \"a \"\"b\"\"\";0; 1.5\r\n"
        "\"x;1\";\"a \"\"b\"\"\";1;2e3  \r\n",
        "q.csv");
    QCOMPARE(set.series.size(), std::size_t(1));
    QCOMPARE(set.series[0].case_id, std::string("x;1"));
    QCOMPARE(set.class_names, (std::vector<std::string>{"a \"b\""}));
    QCOMPARE(set.series[0].values, (std::vector<double>{1.5, 2000}));
  }

  void layoutIsChosenByTheHeaderThroughReadLabelledSeries() {
    QTemporaryDir dir;
    const LabelledSeriesSet wide = read_labelled_series(write_file(dir, "w.csv", "label,t0\na,1\n"));
    QCOMPARE(wide.series.at(0).case_id, std::string("1"));
    QVERIFY(QString::fromStdString(wide.source).endsWith("w.csv"));
    const LabelledSeriesSet long_layout =
        read_labelled_series(write_file(dir, "l.csv", "case_id,label,timestep,dim_0\nc,a,0,1\n"));
    QCOMPARE(long_layout.series.at(0).case_id, std::string("c"));
    QCOMPARE(error_of([&] { (void)read_labelled_series(write_file(dir, "other.csv", "date,value\n2020,1\n")); }),
             QString("other.csv:1:1: the header starts with 'date', which is neither layout's: a long file starts "
                     "case_id,label,timestep,dim_0,... and a wide file label,t0,t1,..."));
  }

  void malformedFilesAreRefusedWithLineAndColumn_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const std::string& text, const char* message) {
      QTest::newRow(name) << QString::fromStdString(text) << QString(message);
    };
    const std::string header = "case_id,label,timestep,dim_0\n";
    row("empty file", "",
        "bad.csv:1:1: the file is empty; a long file starts case_id,label,timestep,dim_0,... and a wide "
        "file label,t0,t1,...");
    row("neither layout", "time,value\n1,2\n",
        "bad.csv:1:1: the header starts with 'time', which is neither layout's: a long file starts "
        "case_id,label,timestep,dim_0,... and a wide file label,t0,t1,...");
    row("long header misnamed", "case_id,label,time,dim_0\n",
        "bad.csv:1:15: column 3 is 'time', not 'timestep' (a long file: case_id,label,timestep,dim_0,...)");
    row("long header without dimensions", "case_id,label,timestep\na,x,0\n",
        "bad.csv:1:23: the header has no dimension columns after timestep (case_id,label,timestep,dim_0,...)");
    row("timestep twice", header + "a,x,0,1\na,x,1,2\na,x,1,3\n",
        "bad.csv:4:5: case 'a' has timestep 1 twice (first at line 3)");
    row("timestep missing", header + "a,x,0,1\na,x,2,2\n",
        "bad.csv:3:5: case 'a' has no timestep 1: its timesteps go from 0 (line 2) to 2");
    row("label changes in a case", header + "a,x,0,1\nb,y,0,1\na,z,1,2\n",
        "bad.csv:4:3: case 'a' is labelled 'z' here, but is labelled 'x' at line 2");
    row("label dropped in a case", header + "a,x,0,1\na,,1,2\n",
        "bad.csv:3:3: case 'a' has no label here, but is labelled 'x' at line 2");
    row("some long cases unlabelled", header + "a,x,0,1\nb,,0,1\n",
        "bad.csv:3:3: case 'b' has no label, but case 'a' (line 2) has one: label every case or none");
    row("long value not a number", header + "a,x,0,abc\n", "bad.csv:2:7: 'abc' is not a number");
    row("timestep negative", header + "a,x,-1,1\n", "bad.csv:2:5: '-1' is not a timestep (a whole number from 0)");
    row("timestep fractional", header + "a,x,1.5,1\n", "bad.csv:2:5: '1.5' is not a timestep (a whole number from 0)");
    row("too many fields", header + "a,x,0,1,2\n", "bad.csv:2:9: 5 fields, but the header has 4");
    row("too few fields", header + "a,x,0\n", "bad.csv:2:6: 3 fields, but the header has 4");
    row("case id empty", header + " ,x,0,1\n", "bad.csv:2:2: the case_id is empty");
    row("no cases", header, "bad.csv:2:1: no cases after the header (line 1)");
    row("quote never closed", "label,t0\n\"a,1\n",
        "bad.csv:2:1: the quoted field that starts here is never closed on its line");
    row("text after quote", "label,t0\n\"a\"b,1\n",
        "bad.csv:2:4: text after the closing quote of the field at column 1");
    row("some wide cases unlabelled", "label,t0\na,1\n,2\n",
        "bad.csv:3:1: this case has no label, but the case at line 2 has one: label every case or none");
    row("wide case labelled after unlabelled", "label,t0\n,1\nb,2\n",
        "bad.csv:3:1: this case has a label, but the case at line 2 has none: label every case or none");
    row("wide case without values", "label,t0,t1\na,,\n", "bad.csv:2:3: the case has no values");
    row("wide header without steps", "label\na\n",
        "bad.csv:1:6: the header has no time-step columns after label (a wide file: label,t0,t1,...)");
    row("wide row too wide", "label,t0\na,1,2\n", "bad.csv:2:5: 3 fields, but the header has 2");
    row("wide value too large", "label,t0,t1\na,1,1e999\n", "bad.csv:2:5: '1e999' is too large for a number");
    row("column counts characters", "label,t0,t1\nété,1,x\n", "bad.csv:2:7: 'x' is not a number");
  }

  void malformedFilesAreRefusedWithLineAndColumn() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    int line = 0;
    try {
      (void)parse_classification_csv(text.toStdString(), "bad.csv");
      QFAIL("the file was accepted");
    } catch (const FileLineError& error) {
      QCOMPARE(QString::fromStdString(error.what()), message);
      line = error.line();
    }
    QCOMPARE(line, message.section(':', 1, 1).toInt());
  }
};

QTEST_GUILESS_MAIN(TestClassificationCsv)
#include "tst_classification_csv.moc"
