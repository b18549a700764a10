// The UEA/UCR .ts reader (core/classify/ts_reader.hpp) and the choice of reader by name or content
// (read_labelled_series): every header tag, missing values, cases of different lengths, several
// dimensions, the forms real files take (CRLF, a byte order mark, comments, blanks), the exact
// message with line and column for each kind of malformed file, and, when the reference data sets
// are present, the same data set read from .ts and from CSV value for value.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/classify/labelled_series.hpp"
#include "core/classify/labelled_series_reader.hpp"
#include "core/classify/ts_reader.hpp"
#include "core/io/file_line_error.hpp"
#include "support/error_message.hpp"
#include "support/test_files.hpp"

using namespace aaren;

namespace {

// Two univariate cases of three steps, labelled; every tag given.
const std::string kFullHeader =
    "# A comment before the header\n"
    "@problemName Tiny Problem\n"
    "@timeStamps false\n"
    "@missing false\n"
    "@univariate true\n"
    "@dimensions 1\n"
    "@equalLength true\n"
    "@seriesLength 3\n"
    "@classLabel true up down\n"
    "@data\n"
    "1,2,3:up\n"
    "3,2.5,-1e-2:down\n";

std::vector<double> values(const LabelledSeries& s) { return s.values; }

}  // namespace

class TestTsReader : public QObject {
  Q_OBJECT

 private slots:
  void everyTagOfAFullHeaderIsRead() {
    const LabelledSeriesSet set = parse_ts(kFullHeader, "tiny.ts");
    QCOMPARE(set.source, std::string("tiny.ts"));
    QCOMPARE(set.problem_name, std::string("Tiny Problem"));
    QCOMPARE(set.dims, 1);
    QCOMPARE(set.class_names, (std::vector<std::string>{"up", "down"}));
    QCOMPARE(set.series.size(), std::size_t(2));
    QCOMPARE(set.series[0].case_id, std::string("1"));
    QCOMPARE(set.series[1].case_id, std::string("2"));
    QCOMPARE(set.series[0].length, 3);
    QCOMPARE(values(set.series[0]), (std::vector<double>{1, 2, 3}));
    QCOMPARE(values(set.series[1]), (std::vector<double>{3, 2.5, -0.01}));
    QCOMPARE(set.series[0].label, 0);
    QCOMPARE(set.series[1].label, 1);
    QVERIFY(set.has_labels());
    QCOMPARE(set.class_counts(), (std::vector<long>{1, 1}));
    QCOMPARE(set.max_length(), 3);
  }

  void tagsAreCaseInsensitiveAndOptional() {
    const LabelledSeriesSet set = parse_ts("@PROBLEMNAME p\n@ClassLabel TRUE a b\n@DATA\n1:b\n", "x.ts");
    QCOMPARE(set.problem_name, std::string("p"));
    QCOMPARE(set.series.at(0).label, 1);
    // Without @problemName the file's stem names the problem; without @classLabel there are no labels.
    const LabelledSeriesSet bare = parse_ts("@data\n1,2\n", "Bare_TRAIN.ts");
    QCOMPARE(bare.problem_name, std::string("Bare_TRAIN"));
    QCOMPARE(bare.series.at(0).label, -1);
    QVERIFY(bare.class_names.empty());
    QVERIFY(!bare.has_labels());
    QVERIFY(bare.class_counts().empty());
  }

  void classLabelFalseAndTargetLabelFalseGiveUnlabelledCases() {
    for (const std::string tag : {"@classLabel false", "@targetLabel false"}) {
      const LabelledSeriesSet set = parse_ts("@dimensions 2\n" + tag + "\n@data\n1,2:3,4\n5:6\n", "u.ts");
      QCOMPARE(set.dims, 2);
      QCOMPARE(set.series.size(), std::size_t(2));
      QCOMPARE(set.series[0].label, -1);
      QCOMPARE(values(set.series[0]), (std::vector<double>{1, 3, 2, 4}));
      QVERIFY(!set.has_labels());
    }
  }

  void missingValuesAreNaN() {
    const LabelledSeriesSet set = parse_ts("@missing true\n@classLabel true a\n@data\n1,?,NaN, 4 :a\n", "m.ts");
    const std::vector<double>& v = set.series.at(0).values;
    QCOMPARE(v.size(), std::size_t(4));
    QCOMPARE(v[0], 1.0);
    QVERIFY(std::isnan(v[1]));
    QVERIFY(std::isnan(v[2]));
    QCOMPARE(v[3], 4.0);
    // Without @missing, a missing value is allowed too.
    QVERIFY(std::isnan(parse_ts("@data\n?,1\n", "m.ts").series.at(0).values[0]));
  }

  void multivariateValuesAreStepMajor() {
    const LabelledSeriesSet set =
        parse_ts("@univariate false\n@dimensions 3\n@classLabel true x y\n@data\n1,2:10,20:100,200:y\n", "mv.ts");
    QCOMPARE(set.dims, 3);
    QCOMPARE(set.series.at(0).length, 2);
    QCOMPARE(values(set.series[0]), (std::vector<double>{1, 10, 100, 2, 20, 200}));  // (length, dims)
  }

  void casesMayDifferInLength() {
    const LabelledSeriesSet set =
        parse_ts("@equalLength false\n@classLabel true a b\n@data\n1,2:3,4:a\n1,2,3,4,5:6,7,8,9,0:b\n7:8:a\n", "v.ts");
    QCOMPARE(set.series.size(), std::size_t(3));
    QCOMPARE(set.series[0].length, 2);
    QCOMPARE(set.series[1].length, 5);
    QCOMPARE(set.series[2].length, 1);
    QCOMPARE(set.max_length(), 5);
    QCOMPARE(set.class_counts(), (std::vector<long>{2, 1}));
    QCOMPARE(values(set.series[1]), (std::vector<double>{1, 6, 2, 7, 3, 8, 4, 9, 5, 0}));
  }

  void crlfByteOrderMarkBlankLinesAndTrailingBlanksReadAsPlainText() {
    std::string windows = "\xEF\xBB\xBF";
    for (const char c : kFullHeader) {
      if (c == '\n')
        windows += "  \t\r\n\r\n";
      else
        windows += c;
    }
    const LabelledSeriesSet plain = parse_ts(kFullHeader, "tiny.ts");
    const LabelledSeriesSet read = parse_ts(windows, "tiny.ts");
    QCOMPARE(read.problem_name, plain.problem_name);
    QCOMPARE(read.class_names, plain.class_names);
    QCOMPARE(read.series.size(), plain.series.size());
    for (std::size_t i = 0; i < plain.series.size(); ++i) {
      QCOMPARE(read.series[i].values, plain.series[i].values);
      QCOMPARE(read.series[i].label, plain.series[i].label);
    }
    // Positions count characters after the mark, on the line as written.
    QCOMPARE(error_of([] { (void)parse_ts("\xEF\xBB\xBF@data\r\n1,x\r\n", "b.ts"); }),
             QString("b.ts:2:3: 'x' is not a number"));
  }

  void malformedFilesAreRefusedWithLineAndColumn_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const std::string& text, const char* message) {
      QTest::newRow(name) << QString::fromStdString(text) << QString(message);
    };
    row("univariate with dimensions", "@univariate true\n@dimensions 2\n@data\n",
        "bad.ts:2:13: @dimensions 2 contradicts @univariate true (line 1)");
    row("univariate with two dimensions in data", "@univariate true\n@data\n1,2:3,4\n",
        "bad.ts:3:5: the case has 2 dimensions, but @univariate is true");
    row("more dimensions than said", "@dimensions 2\n@classLabel true a\n@data\n1:2:3:a\n",
        "bad.ts:4:5: the case has 3 dimensions, but @dimensions is 2");
    row("fewer dimensions than said", "@dimensions 2\n@classLabel true a\n@data\n1,2:a\n",
        "bad.ts:4:4: the case has 1 dimension, but @dimensions is 2");
    row("dimensions differ between cases", "@data\n1:2\n1:2:3\n",
        "bad.ts:3:5: the case has 3 dimensions, but the case at line 2 has 2");
    row("equal length broken", "@equalLength true\n@data\n1,2,3\n4,5\n",
        "bad.ts:4:1: the case has 2 values per dimension, but the case at line 3 has 3 and @equalLength is true");
    row("series length broken", "@seriesLength 3\n@data\n  1,2\n",
        "bad.ts:3:3: the case has 2 values per dimension, but @seriesLength is 3");
    row("a dimension of one value", "@data\n1,2:3\n",
        "bad.ts:2:5: dimension 2 has 1 value, but dimension 1 has 2; the dimensions of a case have the same length");
    row("dimensions of a case differ in length", "@data\n1,2,3:4,5,6:7,8\n",
        "bad.ts:2:13: dimension 3 has 2 values, but dimension 1 has 3; the dimensions of a case have the same length");
    row("unknown label", "@classLabel true cat dog\n@data\n1,2:cow\n",
        "bad.ts:3:5: class label 'cow' is not one of @classLabel's (cat, dog)");
    row("label missing", "@classLabel true cat\n@data\n1,2:\n", "bad.ts:3:5: the class label is missing");
    row("no label at all", "@classLabel true cat\n@data\n1,2\n",
        "bad.ts:3:4: no class label: with @classLabel true a case ends with ':' and its label");
    row("no data line", "@problemName p\n@classLabel true a\n",
        "bad.ts:3:1: no @data line: a .ts file gives its tags, then @data, then one case per line");
    row("no cases", "@problemName p\n@data\n# only a comment", "bad.ts:3:17: no cases after @data (line 2)");
    row("tag after data", "@data\n1,2\n@missing true\n",
        "bad.ts:3:1: '@missing' after @data (line 1): the tags come before @data");
    row("unknown tag", "@problem Name\n@data\n1\n",
        "bad.ts:1:1: unknown tag '@problem'; the tags are @problemName, @timeStamps, @missing, @univariate, "
        "@dimensions, @equalLength, @seriesLength, @classLabel, @targetLabel, @data");
    row("tag twice", "@missing true\n@MISSING true\n@data\n1\n",
        "bad.ts:2:1: @missing appears twice (first at line 1)");
    row("not a number", "@data\n1,2.5,1.2.3\n", "bad.ts:2:7: '1.2.3' is not a number");
    row("number too large", "@data\n1e999\n", "bad.ts:2:1: '1e999' is too large for a number");
    row("empty dimension", "@classLabel true a\n@data\n1,2::3,4:a\n", "bad.ts:3:5: dimension 2 is empty");
    row("empty value", "@data\n1,,3\n", "bad.ts:2:3: value 2 of dimension 1 is empty");
    row("missing value although none", "@missing false\n@data\n1,?,3\n",
        "bad.ts:3:3: '?' is a missing value, but @missing is false (line 1)");
    row("timestamps", "@timeStamps true\n@data\n(1,2)\n",
        "bad.ts:1:13: timestamped data (@timeStamps true) is not supported: write the values without their timestamps "
        "and @timeStamps false");
    row("target label true", "@targetLabel true\n@data\n1:0.5\n",
        "bad.ts:1:14: @targetLabel true marks a regression problem; a classification file gives @classLabel and its "
        "labels");
    row("boolean misspelt", "@equalLength yes\n@data\n1\n",
        "bad.ts:1:14: @equalLength must be true or false, not 'yes'");
    row("boolean missing", "@missing\n@data\n1\n", "bad.ts:1:9: @missing needs true or false");
    row("dimensions not a number", "@dimensions two\n@data\n1\n",
        "bad.ts:1:13: @dimensions must be a whole number from 1, not 'two'");
    row("series length zero", "@seriesLength 0\n@data\n1\n",
        "bad.ts:1:15: @seriesLength must be a whole number from 1, not '0'");
    row("class labels missing", "@classLabel true\n@data\n1\n",
        "bad.ts:1:17: @classLabel true needs the class labels after it");
    row("class label twice", "@classLabel true a b a\n@data\n1:a\n", "bad.ts:1:22: class label 'a' is listed twice");
    row("text before data", "@problemName p\n1,2,3\n@data\n",
        "bad.ts:2:1: '1,2,3' before @data: the header holds tags starting with '@' and comments starting with '#'");
    row("words after data", "@data please\n1\n", "bad.ts:1:7: unexpected 'please' after @data");
    row("column counts characters", "@classLabel true é\n@data\n1:é\n2:é:x\n",
        "bad.ts:4:5: class label 'x' is not one of @classLabel's (é)");
  }

  void malformedFilesAreRefusedWithLineAndColumn() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    int line = 0;
    try {
      (void)parse_ts(text.toStdString(), "bad.ts");
      QFAIL("the file was accepted");
    } catch (const FileLineError& error) {
      QCOMPARE(QString::fromStdString(error.what()), message);
      line = error.line();
    }
    QCOMPARE(line, message.section(':', 1, 1).toInt());
  }

  void readerIsChosenByExtensionOrContent() {
    QTemporaryDir dir;
    const std::string ts = "# comment first\n@classLabel true a\n@data\n1,2:a\n";
    const LabelledSeriesSet by_content = read_labelled_series(write_file(dir, "cases.txt", ts));
    QCOMPARE(by_content.series.at(0).values, (std::vector<double>{1, 2}));
    QCOMPARE(by_content.problem_name, std::string("cases"));
    QVERIFY(QString::fromStdString(by_content.source).endsWith("cases.txt"));
    // A .ts name is read as .ts whatever it holds, so a CSV there is told it has no @data.
    QCOMPARE(error_of([&] { (void)read_labelled_series(write_file(dir, "wrong.TS", "label,t0\na,1\n")); }),
             QString("wrong.TS:1:1: 'label,t0' before @data: the header holds tags starting with '@' and comments "
                     "starting with '#'"));
    const LabelledSeriesSet csv = read_labelled_series(write_file(dir, "wide.dat", "label,t0\na,1\n"));
    QCOMPARE(csv.series.at(0).values, (std::vector<double>{1}));
  }

  void unreadableFilesAreRefusedClearly() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("absent.ts").toStdString();
    QCOMPARE(error_of([&] { (void)read_labelled_series(missing); }),
             QString::fromStdString(missing + ": cannot open (No such file or directory)"));
    QCOMPARE(error_of([&] { (void)read_labelled_series(write_file(dir, "image.ts", "\x89PNG\r\n\x1a\n")); }),
             QString("image.ts is not a text file (it starts like a PNG image)"));
  }

  void referenceDataReadsAlikeFromTsAndCsv_data() {
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("dims");
    QTest::addColumn<int>("shortest");
    QTest::addColumn<int>("longest");
    QTest::addColumn<int>("classes");
    QTest::addColumn<int>("train_cases");
    QTest::addColumn<int>("test_cases");
    QTest::newRow("BasicMotions") << "BasicMotions" << 6 << 100 << 100 << 4 << 40 << 40;
    QTest::newRow("JapaneseVowels") << "JapaneseVowels" << 12 << 7 << 29 << 9 << 270 << 370;
  }

  void referenceDataReadsAlikeFromTsAndCsv() {
    QFETCH(QString, problem);
    QFETCH(int, dims);
    QFETCH(int, shortest);
    QFETCH(int, longest);
    QFETCH(int, classes);
    QFETCH(int, train_cases);
    QFETCH(int, test_cases);
    const QString shared = qEnvironmentVariable("AAREN_SHARED_DATASETS");
    const std::filesystem::path folder = std::filesystem::path(shared.toStdString()) / "reference" / "uea-ucr";
    if (shared.isEmpty() || !std::filesystem::is_directory(folder))
      QSKIP("AAREN_SHARED_DATASETS/reference/uea-ucr is absent; the UEA/UCR check needs the reference data sets");
    int lengths_seen[2] = {1 << 30, 0};
    for (const auto& [part, cases] : {std::pair{"TRAIN", train_cases}, std::pair{"TEST", test_cases}}) {
      const std::string stem = problem.toStdString() + "_" + part;
      const LabelledSeriesSet ts = read_labelled_series((folder / "ts" / (stem + ".ts")).string());
      const LabelledSeriesSet csv = read_labelled_series((folder / "csv" / (stem + ".csv")).string());
      QCOMPARE(ts.problem_name, problem.toStdString());
      QCOMPARE(ts.dims, dims);
      QCOMPARE(csv.dims, dims);
      QCOMPARE(int(ts.class_names.size()), classes);
      QCOMPARE(int(ts.series.size()), cases);
      QCOMPARE(int(csv.series.size()), cases);
      QVERIFY(ts.has_labels() && csv.has_labels());
      QCOMPARE(int(csv.class_names.size()), classes);
      for (std::size_t k = 0; k < ts.class_names.size(); ++k) {
        const auto in_csv = std::find(csv.class_names.begin(), csv.class_names.end(), ts.class_names[k]);
        QVERIFY(in_csv != csv.class_names.end());
        QCOMPARE(csv.class_counts().at(std::size_t(in_csv - csv.class_names.begin())), ts.class_counts()[k]);
      }
      for (int i = 0; i < cases; ++i) {
        const LabelledSeries& a = ts.series[std::size_t(i)];
        const LabelledSeries& b = csv.series[std::size_t(i)];
        QCOMPARE(a.length, b.length);
        QCOMPARE(ts.class_names.at(std::size_t(a.label)), csv.class_names.at(std::size_t(b.label)));
        QCOMPARE(a.values, b.values);  // both parse the same decimal text, so equal bit for bit
        lengths_seen[0] = std::min(lengths_seen[0], a.length);
        lengths_seen[1] = std::max(lengths_seen[1], a.length);
      }
    }
    QCOMPARE(lengths_seen[0], shortest);
    QCOMPARE(lengths_seen[1], longest);
  }
};

QTEST_GUILESS_MAIN(TestTsReader)
#include "tst_ts_reader.moc"
