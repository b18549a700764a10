// `aaren attention` run as a real process on files written to a temporary folder: hand-computable
// outputs, output shapes, agreement of the methods, --out, --trace, and every kind of bad input,
// which must end in an error naming what is wrong (exit 1 for data and files, 2 for the command
// line) and never in a crash.
#include <QtTest>

#include <tuple>

#include "cli/cli_process.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace aaren {

namespace {

using Rows = std::vector<std::vector<double>>;

// Comma-separated numbers, one row per line; false when a cell is not a number.
bool parse_rows(const QString& text, Rows& rows) {
  rows.clear();
  for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
    std::vector<double> row;
    for (const QString& cell : line.split(QLatin1Char(','))) {
      bool ok = false;
      row.push_back(cell.toDouble(&ok));
      if (!ok) return false;
    }
    rows.push_back(row);
  }
  return true;
}

QString rows_to_csv(const Rows& rows) {
  QString text;
  for (const auto& row : rows) {
    QStringList cells;
    for (double x : row) cells << QString::number(x, 'g', 17);
    text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return text;
}

Rows random_rows(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Rows m(static_cast<std::size_t>(rows), std::vector<double>(static_cast<std::size_t>(cols)));
  for (auto& row : m)
    for (double& x : row) x = normal(rng);
  return m;
}

// max |a - b| / max |b| over all entries; infinite when the shapes differ.
double relative_error(const Rows& actual, const Rows& reference) {
  if (actual.size() != reference.size()) return std::numeric_limits<double>::infinity();
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (actual[i].size() != reference[i].size()) return std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < reference[i].size(); ++j) {
      worst = std::max(worst, std::abs(actual[i][j] - reference[i][j]));
      largest = std::max(largest, std::abs(reference[i][j]));
    }
  }
  return largest > 0 ? worst / largest : worst;
}

const QStringList kPrefixMethods{QStringLiteral("conventional"), QStringLiteral("recurrent"), QStringLiteral("sequential"),
                                 QStringLiteral("hillis-steele"), QStringLiteral("brent-kung")};

std::vector<double> json_numbers(const QJsonValue& value) {
  std::vector<double> xs;
  for (const QJsonValue& x : value.toArray()) xs.push_back(x.toDouble(std::nan("")));
  return xs;
}

Rows json_rows(const QJsonValue& value) {
  Rows rows;
  for (const QJsonValue& row : value.toArray()) rows.push_back(json_numbers(row));
  return rows;
}

}  // namespace

class TestCliAttention : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  Rows random_q_, random_k_, random_v_;

  QString path(const QString& name) const { return dir_.filePath(name); }

  void write(const QString& name, const QByteArray& content) {
    QFile file(path(name));
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(file.errorString()));
    QCOMPARE(file.write(content), qint64(content.size()));
  }

  // "@name" stands for the file `name` in the temporary folder.
  QString expand(QString text) const {
    static const QRegularExpression placeholder(QStringLiteral("@([\\w./-]+)"));
    QRegularExpressionMatch match;
    qsizetype from = 0;
    while ((match = placeholder.match(text, from)).hasMatch()) {
      const QString full = path(match.captured(1));
      text.replace(match.capturedStart(), match.capturedLength(), full);
      from = match.capturedStart() + full.size();
    }
    return text;
  }

  QStringList expand(const QStringList& items) const {
    QStringList out;
    for (const QString& item : items) out << expand(item);
    return out;
  }

  static QStringList attention(const QString& q, const QString& k, const QString& v) {
    return {QStringLiteral("attention"), QStringLiteral("--q"), q, QStringLiteral("--k"), k, QStringLiteral("--v"), v};
  }
  static QStringList good_files() {
    return attention(QStringLiteral("@q.csv"), QStringLiteral("@k.csv"), QStringLiteral("@v.csv"));
  }
  static QStringList random_files() {
    return attention(QStringLiteral("@random_q.csv"), QStringLiteral("@random_k.csv"), QStringLiteral("@random_v.csv"));
  }

  // Runs and parses a successful command; fails the test otherwise.
  void run_rows(const QStringList& args, Rows& rows) {
    const CliResult r = run_cli(expand(args));
    QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(args.join(QLatin1Char(' ')) + QLatin1Char('\n') + r.describe()));
    QVERIFY2(parse_rows(r.out, rows), qPrintable(QStringLiteral("output is not numbers:\n") + r.out));
  }

 private slots:
  void initTestCase() {
    QVERIFY2(dir_.isValid(), qPrintable(dir_.errorString()));
    write(QStringLiteral("q.csv"), "1,0\n0,1\n");
    write(QStringLiteral("k.csv"), "1,0\n0,1\n1,1\n");
    write(QStringLiteral("v.csv"), "1,2\n3,4\n5,6\n");
    write(QStringLiteral("q3.csv"), "1,0,0\n");
    write(QStringLiteral("v2rows.csv"), "1,2\n3,4\n");
    write(QStringLiteral("empty.csv"), "");
    write(QStringLiteral("blank_lines.csv"), "\n   \n\r\n");
    write(QStringLiteral("ragged.csv"), "1,2\n3\n5,6\n");
    write(QStringLiteral("words.csv"), "1,2\n3,abc\n5,6\n");
    write(QStringLiteral("nan.csv"), "1,2\n3,4\nnan,6\n");
    write(QStringLiteral("inf.csv"), "1,inf\n3,4\n5,6\n");
    write(QStringLiteral("minus_inf.csv"), "1,2\n3,4\n5,-inf\n");
    write(QStringLiteral("empty_cell.csv"), "1,2\n3,\n5,6\n");
    write(QStringLiteral("huge.csv"), "1,2\n1e999,4\n5,6\n");
    write(QStringLiteral("tiny.csv"), "1,2\n1e-999,4\n5,6\n");
    write(QStringLiteral("big_q.csv"), "1e200,1e200\n");
    write(QStringLiteral("big_k.csv"), "1e200,1e200\n1,2\n3,4\n");
    write(QStringLiteral("float_overflow.csv"), "1,2\n1e39,4\n5,6\n");
    QVERIFY(QDir(dir_.path()).mkdir(QStringLiteral("folder")));

    std::mt19937 rng(2405);
    random_q_ = random_rows(3, 4, rng);
    random_k_ = random_rows(50, 4, rng);
    random_v_ = random_rows(50, 2, rng);
    write(QStringLiteral("random_q.csv"), rows_to_csv(random_q_).toUtf8());
    write(QStringLiteral("random_k.csv"), rows_to_csv(random_k_).toUtf8());
    write(QStringLiteral("random_v.csv"), rows_to_csv(random_v_).toUtf8());
  }

  void golden_outputs_data() {
    QTest::addColumn<QByteArray>("q");
    QTest::addColumn<QByteArray>("k");
    QTest::addColumn<QByteArray>("v");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    QTest::addRow("two equal scores give the mean of the values")
        << QByteArray("1,0\n") << QByteArray("1,0\n1,0\n") << QByteArray("1,2\n3,4\n") << QStringList{} << "2,3\n";
    QTest::addRow("one token gives its value")
        << QByteArray("5\n") << QByteArray("2\n") << QByteArray("7,-1.5\n") << QStringList{} << "7,-1.5\n";
    QTest::addRow("prefixes of equal scores are running means")
        << QByteArray("0,1\n") << QByteArray("3,0\n-2,0\n7,0\n1,0\n") << QByteArray("1\n3\n5\n7\n")
        << QStringList{"--prefixes"} << "1\n2\n3\n4\n";
    QTest::addRow("a score 1000 above the rest takes all the weight (exp(1000) overflows)")
        << QByteArray("1\n") << QByteArray("0\n1000\n-5\n") << QByteArray("1,1\n2,-3\n4,4\n") << QStringList{}
        << "2,-3\n";
    QTest::addRow("same, every prefix")
        << QByteArray("1\n") << QByteArray("0\n1000\n-5\n") << QByteArray("1,1\n2,-3\n4,4\n")
        << QStringList{"--prefixes"} << "1,1\n2,-3\n2,-3\n";
    QTest::addRow("scores below -200 in float (the paper's m_0 = 0 gives NaN)")
        << QByteArray("1\n") << QByteArray("-300\n-300\n") << QByteArray("1\n2\n")
        << QStringList{"--precision", "float"} << "1.5\n";
    QTest::addRow("float prints float's shortest digits")
        << QByteArray("1\n") << QByteArray("0\n") << QByteArray("0.3333333333333333\n")
        << QStringList{"--precision", "float"} << "0.33333334\n";
    QTest::addRow("double prints double's shortest digits")
        << QByteArray("1\n") << QByteArray("0\n") << QByteArray("0.3333333333333333\n")
        << QStringList{"--precision", "double"} << "0.3333333333333333\n";
    QTest::addRow("one row per query")
        << QByteArray("1,0\n0,1\n") << QByteArray("1000,0\n0,1000\n") << QByteArray("1,2\n3,4\n") << QStringList{}
        << "1,2\n3,4\n";
    QTest::addRow("prefixes are query-major")
        << QByteArray("1,0\n0,1\n") << QByteArray("1000,0\n0,1000\n") << QByteArray("1,2\n3,4\n")
        << QStringList{"--prefixes"} << "1,2\n1,2\n1,2\n3,4\n";
    QTest::addRow("byte order mark, CRLF, spaces, no final newline")
        << QByteArray("\xEF\xBB\xBF" "1,0\r\n") << QByteArray(" 1 , 0 \r\n\r\n1,0\r\n") << QByteArray("1,2\n3,4")
        << QStringList{} << "2,3\n";
  }

  // Every method must print exactly these numbers (block only where one output per query is asked).
  void golden_outputs() {
    QFETCH(QByteArray, q);
    QFETCH(QByteArray, k);
    QFETCH(QByteArray, v);
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    write(QStringLiteral("golden_q.csv"), q);
    write(QStringLiteral("golden_k.csv"), k);
    write(QStringLiteral("golden_v.csv"), v);
    QStringList methods = kPrefixMethods;
    if (!options.contains(QStringLiteral("--prefixes"))) methods << QStringLiteral("block");
    for (const QString& method : methods) {
      const QStringList args = attention(QStringLiteral("@golden_q.csv"), QStringLiteral("@golden_k.csv"),
                                         QStringLiteral("@golden_v.csv")) +
                               options + QStringList{QStringLiteral("--method"), method};
      const CliResult r = run_cli(expand(args));
      QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(method + QLatin1Char('\n') + r.describe()));
      QVERIFY2(r.out == expected, qPrintable(QStringLiteral("%1: printed\n%2expected\n%3").arg(method, r.out, expected)));
    }
  }

  // N rows per query, query-major: query h's block starts with v_0 (a prefix of one token) and ends
  // with that query's many-to-one output.
  void prefixes_output_shape() {
    Rows one, all;
    run_rows(random_files(), one);
    run_rows(random_files() + QStringList{QStringLiteral("--prefixes")}, all);
    const int h_count = int(random_q_.size()), n = int(random_k_.size());
    QCOMPARE(int(one.size()), h_count);
    QCOMPARE(int(all.size()), h_count * n);
    for (const auto& row : all) QCOMPARE(int(row.size()), int(random_v_[0].size()));
    for (int h = 0; h < h_count; ++h) {
      QCOMPARE(all[std::size_t(h * n)], random_v_[0]);
      const double error = relative_error(Rows{all[std::size_t(h * n + n - 1)]}, Rows{one[std::size_t(h)]});
      QVERIFY2(error < 1e-12, qPrintable(QStringLiteral("query %1: last prefix differs from many-to-one by %2").arg(h).arg(error)));
    }
  }

  void every_method_gives_the_same_output_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("prefixes");
    for (const QString& method : kPrefixMethods) {
      QTest::addRow("%s", qPrintable(method)) << QStringList{"--method", method} << false;
      QTest::addRow("%s --prefixes", qPrintable(method)) << QStringList{"--method", method, "--prefixes"} << true;
    }
    for (const QString& b : {QStringLiteral("1"), QStringLiteral("7"), QStringLiteral("50"), QStringLiteral("64"),
                             QStringLiteral("1000")})
      QTest::addRow("block --block-size %s", qPrintable(b)) << QStringList{"--method", "block", "--block-size", b} << false;
  }

  // Against the conventional softmax, in double (1e-12) and in float (1e-5), relative error as
  // max |a - b| / max |b|.
  void every_method_gives_the_same_output() {
    QFETCH(QStringList, options);
    QFETCH(bool, prefixes);
    Rows expected;
    run_rows(random_files() + QStringList{QStringLiteral("--method"), QStringLiteral("conventional")} +
                 (prefixes ? QStringList{QStringLiteral("--prefixes")} : QStringList{}),
             expected);
    if (QTest::currentTestFailed()) return;
    for (const char* precision : {"double", "float"}) {
      Rows actual;
      run_rows(random_files() + options + QStringList{QStringLiteral("--precision"), QString::fromLatin1(precision)},
               actual);
      if (QTest::currentTestFailed()) return;
      const double limit = QByteArray(precision) == "double" ? 1e-12 : 1e-5;
      const double error = relative_error(actual, expected);
      QVERIFY2(error < limit, qPrintable(QStringLiteral("%1: relative error %2 (limit %3)").arg(precision).arg(error).arg(limit)));
    }
  }

  void linear_methods_agree_data() {
    QTest::addColumn<QStringList>("map");
    QTest::addColumn<bool>("prefixes");
    for (const bool prefixes : {false, true}) {
      const char* tail = prefixes ? " --prefixes" : "";
      QTest::addRow("elu1%s", tail) << QStringList{"--feature-map", "elu1"} << prefixes;
      QTest::addRow("relu%s", tail) << QStringList{"--feature-map", "relu"} << prefixes;
      QTest::addRow("favor 32%s", tail) << QStringList{"--feature-map", "favor", "--features", "32", "--seed", "3"} << prefixes;
    }
  }

  // Linear attention by its three methods: the recurrent state and the chunked form (a chunk of 7
  // does not divide the 50 tokens) against the quadratic parallel form, in double and in float.
  void linear_methods_agree() {
    QFETCH(QStringList, map);
    QFETCH(bool, prefixes);
    const QStringList linear = random_files() + QStringList{QStringLiteral("--attention"), QStringLiteral("linear")} + map +
                               (prefixes ? QStringList{QStringLiteral("--prefixes")} : QStringList{});
    Rows expected;
    run_rows(linear + QStringList{QStringLiteral("--method"), QStringLiteral("parallel")}, expected);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(int(expected.size()), int(random_q_.size()) * (prefixes ? int(random_k_.size()) : 1));
    for (const QStringList& method : {QStringList{"--method", "recurrent"}, QStringList{"--method", "chunked", "--chunk", "7"}})
      for (const char* precision : {"double", "float"}) {
        Rows actual;
        run_rows(linear + method + QStringList{QStringLiteral("--precision"), QString::fromLatin1(precision)}, actual);
        if (QTest::currentTestFailed()) return;
        const double limit = QByteArray(precision) == "double" ? 1e-12 : 1e-5;
        const double error = relative_error(actual, expected);
        QVERIFY2(error < limit, qPrintable(QStringLiteral("%1 %2: relative error %3").arg(method.join(' '), precision).arg(error)));
      }
  }

  // FAVOR+ approximates softmax attention: more features, closer to it. Queries and keys of small
  // norm, where the estimate's variance (which grows as exp(|q + k|^2)) lets the fall show.
  void favor_approaches_softmax() {
    std::mt19937 rng(7);
    for (const auto& [name, rows, cols] : {std::tuple{"small_q.csv", 3, 4}, std::tuple{"small_k.csv", 50, 4}}) {
      Rows small = random_rows(rows, cols, rng);
      for (auto& row : small)
        for (double& x : row) x *= 0.25;
      write(QString::fromLatin1(name), rows_to_csv(small).toUtf8());
    }
    const QStringList files = attention(QStringLiteral("@small_q.csv"), QStringLiteral("@small_k.csv"), QStringLiteral("@random_v.csv"));
    Rows softmax;
    run_rows(files + QStringList{QStringLiteral("--method"), QStringLiteral("conventional")}, softmax);
    std::vector<double> errors;
    for (const char* m : {"8", "4096"}) {
      double total = 0;
      for (const char* seed : {"1", "2", "3"}) {
        Rows favor;
        run_rows(files + QStringList{"--attention", "linear", "--feature-map", "favor", "--features", m, "--seed", seed}, favor);
        if (QTest::currentTestFailed()) return;
        total += relative_error(favor, softmax);
      }
      errors.push_back(total / 3);
    }
    QVERIFY2(errors[1] < errors[0] / 4, qPrintable(QStringLiteral("M = 8: %1, M = 4096: %2").arg(errors[0]).arg(errors[1])));
  }

  void out_writes_the_file() {
    const CliResult to_stdout = run_cli(expand(random_files()));
    QVERIFY2(to_stdout.exited() && to_stdout.exit_code == 0, qPrintable(to_stdout.describe()));
    QVERIFY(QDir(dir_.path()).mkdir(QStringLiteral("out")));
    const CliResult to_file = run_cli(expand(random_files() + QStringList{QStringLiteral("--out"), QStringLiteral("@out/o.csv")}));
    QVERIFY2(to_file.exited() && to_file.exit_code == 0, qPrintable(to_file.describe()));
    QVERIFY2(to_file.out.isEmpty(), qPrintable(QStringLiteral("with --out, nothing goes to stdout; got:\n") + to_file.out));
    QFile file(path(QStringLiteral("out/o.csv")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), to_stdout.out);
    QCOMPARE(QDir(path(QStringLiteral("out"))).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("o.csv")});
  }

  void trace_writes_valid_json_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<bool>("prefixes");
    QTest::addColumn<int>("n");
    QTest::addRow("brent-kung, prefixes, N=50") << "brent-kung" << true << 50;
    QTest::addRow("hillis-steele, prefixes, N=7") << "hillis-steele" << true << 7;
    QTest::addRow("sequential, one output, N=5") << "sequential" << false << 5;
    QTest::addRow("brent-kung, one token") << "brent-kung" << true << 1;
    QTest::addRow("recurrent, prefixes, N=20") << "recurrent" << true << 20;
    QTest::addRow("recurrent, one output, N=6") << "recurrent" << false << 6;
    QTest::addRow("conventional, N=4") << "conventional" << true << 4;
  }

  // The documented structure: {method, note, queries: [{query, scores, scan | cell}]}, where
  // scan = {method, depth, work, initial: {m, u, w}, steps: [{combines: [[left, right]], m, u, w}]}
  // and cell = [{a, c, m, o}] per token.
  void trace_writes_valid_json() {
    QFETCH(QString, method);
    QFETCH(bool, prefixes);
    QFETCH(int, n);
    std::mt19937 rng(static_cast<unsigned>(n));
    const Rows q = random_rows(2, 3, rng), k = random_rows(n, 3, rng), v = random_rows(n, 2, rng);
    write(QStringLiteral("trace_q.csv"), rows_to_csv(q).toUtf8());
    write(QStringLiteral("trace_k.csv"), rows_to_csv(k).toUtf8());
    write(QStringLiteral("trace_v.csv"), rows_to_csv(v).toUtf8());
    QStringList args = attention(QStringLiteral("@trace_q.csv"), QStringLiteral("@trace_k.csv"), QStringLiteral("@trace_v.csv")) +
                       QStringList{QStringLiteral("--method"), method, QStringLiteral("--trace"), QStringLiteral("@trace.json")};
    if (prefixes) args << QStringLiteral("--prefixes");
    Rows outputs;
    run_rows(args, outputs);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(outputs.size(), q.size() * std::size_t(prefixes ? n : 1));

    QFile file(path(QStringLiteral("trace.json")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject root = document.object();
    QCOMPARE(root.value(QStringLiteral("method")).toString(), method);
    QVERIFY(root.value(QStringLiteral("note")).isString());
    const QJsonArray queries = root.value(QStringLiteral("queries")).toArray();
    QCOMPARE(queries.size(), qsizetype(q.size()));
    for (int h = 0; h < int(q.size()); ++h) {
      const QJsonObject entry = queries[h].toObject();
      QCOMPARE(entry.value(QStringLiteral("query")).toInt(-1), h);
      std::vector<double> scores(static_cast<std::size_t>(n), 0.0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < 3; ++j) scores[std::size_t(i)] += q[std::size_t(h)][std::size_t(j)] * k[std::size_t(i)][std::size_t(j)];
      const double score_error = relative_error(Rows{json_numbers(entry.value(QStringLiteral("scores")))}, Rows{scores});
      QVERIFY2(score_error < 1e-12, qPrintable(QStringLiteral("query %1: scores off by %2").arg(h).arg(score_error)));
      // What this query's outputs are: its N prefix rows, or its one row.
      const Rows mine = prefixes ? Rows(outputs.begin() + h * n, outputs.begin() + (h + 1) * n) : Rows{outputs[std::size_t(h)]};

      if (method == QStringLiteral("recurrent")) {
        QVERIFY(!entry.contains(QStringLiteral("scan")));
        const QJsonArray cell = entry.value(QStringLiteral("cell")).toArray();
        QCOMPARE(cell.size(), qsizetype(n));
        Rows cell_outputs;
        double running_max = -std::numeric_limits<double>::infinity();
        for (int t = 0; t < n; ++t) {
          const QJsonObject row = cell[t].toObject();
          const std::vector<double> a = json_numbers(row.value(QStringLiteral("a"))), o = json_numbers(row.value(QStringLiteral("o")));
          const double c = row.value(QStringLiteral("c")).toDouble(std::nan(""));
          running_max = std::max(running_max, scores[std::size_t(t)]);
          QVERIFY(std::abs(row.value(QStringLiteral("m")).toDouble(std::nan("")) - running_max) <= 1e-12 * (1 + std::abs(running_max)));
          QCOMPARE(a.size(), std::size_t(2));
          QCOMPARE(o.size(), std::size_t(2));
          for (std::size_t j = 0; j < 2; ++j) QVERIFY2(std::abs(o[j] - a[j] / c) <= 1e-12 * (1 + std::abs(o[j])), "o != a / c");
          cell_outputs.push_back(o);
        }
        const Rows compared = prefixes ? cell_outputs : Rows{cell_outputs.back()};
        QVERIFY2(relative_error(compared, mine) < 1e-12, "the cell's o must be the printed outputs");
      } else if (method == QStringLiteral("conventional")) {
        QVERIFY(!entry.contains(QStringLiteral("scan")));
        QVERIFY(!entry.contains(QStringLiteral("cell")));
      } else {
        QVERIFY(!entry.contains(QStringLiteral("cell")));
        const QJsonObject scan = entry.value(QStringLiteral("scan")).toObject();
        QCOMPARE(scan.value(QStringLiteral("method")).toString(), method);
        const int depth = scan.value(QStringLiteral("depth")).toInt(-1);
        const int work = scan.value(QStringLiteral("work")).toInt(-1);
        const QJsonObject initial = scan.value(QStringLiteral("initial")).toObject();
        QVERIFY(relative_error(Rows{json_numbers(initial.value(QStringLiteral("m")))}, Rows{scores}) < 1e-12);
        QCOMPARE(json_numbers(initial.value(QStringLiteral("u"))), std::vector<double>(std::size_t(n), 1.0));
        QCOMPARE(json_rows(initial.value(QStringLiteral("w"))), v);
        const QJsonArray steps = scan.value(QStringLiteral("steps")).toArray();
        QCOMPARE(steps.size(), qsizetype(depth));
        int combines = 0;
        QJsonObject last = initial;
        for (const QJsonValue& step_value : steps) {
          const QJsonObject step = step_value.toObject();
          for (const QJsonValue& pair : step.value(QStringLiteral("combines")).toArray()) {
            const QJsonArray lr = pair.toArray();
            QCOMPARE(lr.size(), qsizetype(2));
            QVERIFY(0 <= lr[0].toInt(-1) && lr[0].toInt(-1) < lr[1].toInt(-1) && lr[1].toInt(-1) < n);
            ++combines;
          }
          QCOMPARE(json_numbers(step.value(QStringLiteral("m"))).size(), std::size_t(n));
          last = step;
        }
        QCOMPARE(combines, work);
        const std::vector<double> u = json_numbers(last.value(QStringLiteral("u")));
        Rows scanned = json_rows(last.value(QStringLiteral("w")));
        QCOMPARE(scanned.size(), std::size_t(n));
        for (int i = 0; i < n; ++i)
          for (double& x : scanned[std::size_t(i)]) x /= u[std::size_t(i)];
        const Rows compared = prefixes ? scanned : Rows{scanned.back()};
        QVERIFY2(relative_error(compared, mine) < 1e-12, "the last step's w / u must be the printed outputs");
      }
    }
  }

  void help_and_version_exit_zero_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("aaren --help") << QStringList{"--help"} << "usage: aaren <command>";
    QTest::addRow("aaren -h") << QStringList{"-h"} << "usage: aaren <command>";
    QTest::addRow("aaren attention --help") << QStringList{"attention", "--help"} << "usage: aaren attention";
    QTest::addRow("aaren attention -h") << QStringList{"attention", "-h"} << "--block-size";
    QTest::addRow("aaren --version") << QStringList{"--version"} << "aaren " AAREN_VERSION;
  }

  void help_and_version_exit_zero() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited() && r.exit_code == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains(expected), qPrintable(r.describe()));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    if (args.contains(QStringLiteral("attention")))
      for (const QString& method : kPrefixMethods + QStringList{QStringLiteral("block")})
        QVERIFY2(r.out.contains(method), qPrintable(QStringLiteral("--help does not mention ") + method));
  }

  void bad_input_fails_with_a_clear_message_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exit_code");
    QTest::addColumn<QStringList>("fragments");
    const QStringList good = good_files();
    const auto with = [](const QString& q, const QString& k, const QString& v) { return attention(q, k, v); };

    // Data and files: exit 1, the message names the file (and line and column where there is one).
    QTest::addRow("missing file") << with("@q.csv", "@no_such_file.csv", "@v.csv") << 1
                                  << QStringList{"@no_such_file.csv", "cannot open", "No such file or directory"};
    QTest::addRow("a folder, not a file") << with("@q.csv", "@k.csv", "@folder") << 1 << QStringList{"@folder", "is a folder"};
    QTest::addRow("ragged rows") << with("@q.csv", "@ragged.csv", "@v.csv") << 1
                                 << QStringList{"@ragged.csv, line 2", "1 columns", "line 1 has 2"};
    QTest::addRow("non-numeric cell") << with("@q.csv", "@k.csv", "@words.csv") << 1
                                      << QStringList{"@words.csv, line 2, column 2", "'abc' is not a number"};
    QTest::addRow("NaN") << with("@q.csv", "@k.csv", "@nan.csv") << 1
                         << QStringList{"@nan.csv, line 3, column 1", "'nan'", "not a finite number"};
    QTest::addRow("inf") << with("@q.csv", "@inf.csv", "@v.csv") << 1
                         << QStringList{"@inf.csv, line 1, column 2", "'inf'", "not a finite number"};
    QTest::addRow("-inf") << with("@q.csv", "@k.csv", "@minus_inf.csv") << 1
                          << QStringList{"@minus_inf.csv, line 3, column 2", "'-inf'", "not a finite number"};
    QTest::addRow("empty cell") << with("@empty_cell.csv", "@k.csv", "@v.csv") << 1
                                << QStringList{"@empty_cell.csv, line 2, column 2", "empty"};
    QTest::addRow("number beyond double") << with("@q.csv", "@huge.csv", "@v.csv") << 1
                                          << QStringList{"@huge.csv, line 2, column 1", "'1e999'", "too large"};
    QTest::addRow("number below double") << with("@q.csv", "@tiny.csv", "@v.csv") << 1
                                         << QStringList{"@tiny.csv, line 2, column 1", "'1e-999'", "too small"};
    QTest::addRow("scores that overflow") << with("@big_q.csv", "@big_k.csv", "@v.csv") << 1
                                          << QStringList{"query 1, key 1", "overflows"};
    QTest::addRow("number beyond float with --precision float")
        << with("@q.csv", "@k.csv", "@float_overflow.csv") + QStringList{"--precision", "float"} << 1
        << QStringList{"@float_overflow.csv, line 2, column 1", "does not fit in float"};
    QTest::addRow("d differs between Q and K") << with("@q3.csv", "@k.csv", "@v.csv") << 1
                                               << QStringList{"Q has 3 columns but K has 2", "@q3.csv", "@k.csv"};
    QTest::addRow("rows differ between K and V") << with("@q.csv", "@k.csv", "@v2rows.csv") << 1
                                                 << QStringList{"K has 3 rows but V has 2", "@k.csv", "@v2rows.csv"};
    QTest::addRow("empty K (N = 0)") << with("@q.csv", "@empty.csv", "@v2rows.csv") << 1
                                     << QStringList{"K has no rows", "N = 0", "@empty.csv"};
    QTest::addRow("K of blank lines only (N = 0)") << with("@q.csv", "@blank_lines.csv", "@v.csv") << 1
                                                   << QStringList{"K has no rows", "@blank_lines.csv"};
    QTest::addRow("empty Q") << with("@empty.csv", "@k.csv", "@v.csv") << 1 << QStringList{"Q has no rows", "@empty.csv"};
    QTest::addRow("--out into a missing folder") << good + QStringList{"--out", "@no_such_folder/o.csv"} << 1
                                                 << QStringList{"@no_such_folder/o.csv", "cannot write"};
    QTest::addRow("--trace into a missing folder") << good + QStringList{"--trace", "@no_such_folder/t.json"} << 1
                                                   << QStringList{"@no_such_folder/t.json", "cannot write"};

    // The command line: exit 2, the message names the option.
    QTest::addRow("block size 0") << good + QStringList{"--method", "block", "--block-size", "0"} << 2
                                  << QStringList{"--block-size must be between 1 and", "got 0"};
    QTest::addRow("block size negative") << good + QStringList{"--method", "block", "--block-size", "-3"} << 2
                                         << QStringList{"--block-size", "got -3"};
    QTest::addRow("block size not a number") << good + QStringList{"--method", "block", "--block-size", "abc"} << 2
                                             << QStringList{"--block-size must be a whole number", "'abc'"};
    QTest::addRow("block size not whole") << good + QStringList{"--method", "block", "--block-size", "2.5"} << 2
                                          << QStringList{"--block-size must be a whole number", "'2.5'"};
    QTest::addRow("block size beyond int") << good + QStringList{"--method", "block", "--block-size", "99999999999"} << 2
                                           << QStringList{"--block-size", "99999999999"};
    QTest::addRow("block size without block") << good + QStringList{"--block-size", "4"} << 2
                                              << QStringList{"--block-size applies only to --method block"};
    QTest::addRow("unknown method") << good + QStringList{"--method", "fastest"} << 2
                                    << QStringList{"unknown method 'fastest'", "brent-kung", "hillis-steele"};
    QTest::addRow("the old name of the Brent-Kung scan") << good + QStringList{"--method", "blelloch"} << 2
                                                         << QStringList{"unknown method 'blelloch'", "named brent-kung",
                                                                        "Blelloch's published exclusive scan"};
    QTest::addRow("--prefixes with block") << good + QStringList{"--method", "block", "--prefixes"} << 2
                                           << QStringList{"--method block", "--prefixes"};
    QTest::addRow("unknown option") << good + QStringList{"--bogus", "1"} << 2 << QStringList{"unknown option --bogus"};
    QTest::addRow("missing --v") << good.mid(0, 5) << 2 << QStringList{"--v is required"};
    QTest::addRow("missing --q") << QStringList{"attention"} + good.mid(3) << 2 << QStringList{"--q is required"};
    QTest::addRow("option without its value") << good + QStringList{"--out"} << 2 << QStringList{"--out needs a value"};
    QTest::addRow("flag given a value") << good + QStringList{"--prefixes=yes"} << 2 << QStringList{"--prefixes takes no value"};
    QTest::addRow("unknown precision") << good + QStringList{"--precision", "half"} << 2
                                       << QStringList{"--precision must be float or double", "'half'"};
    QTest::addRow("stray argument") << good + QStringList{"extra"} << 2 << QStringList{"unexpected argument 'extra'"};
    QTest::addRow("unknown attention") << good + QStringList{"--attention", "cosine"} << 2
                                       << QStringList{"--attention must be softmax or linear", "'cosine'"};
    QTest::addRow("unknown feature map") << good + QStringList{"--attention", "linear", "--feature-map", "softplus"} << 2
                                         << QStringList{"unknown feature map 'softplus'", "elu1, relu, favor"};
    QTest::addRow("no features") << good + QStringList{"--attention", "linear", "--feature-map", "favor", "--features", "0"} << 2
                                 << QStringList{"--features must be between 1 and", "got 0"};
    QTest::addRow("negative features") << good + QStringList{"--attention", "linear", "--feature-map", "favor", "--features", "-4"}
                                       << 2 << QStringList{"--features", "got -4"};
    QTest::addRow("features without favor") << good + QStringList{"--attention", "linear", "--features", "8"} << 2
                                            << QStringList{"--features applies only to --feature-map favor"};
    QTest::addRow("feature map without linear") << good + QStringList{"--feature-map", "relu"} << 2
                                                << QStringList{"--feature-map applies only to --attention linear"};
    QTest::addRow("softmax method with linear") << good + QStringList{"--attention", "linear", "--method", "hillis-steele"} << 2
                                                << QStringList{"unknown method 'hillis-steele' for --attention linear", "chunked"};
    QTest::addRow("chunk without chunked") << good + QStringList{"--attention", "linear", "--method", "parallel", "--chunk", "4"}
                                           << 2 << QStringList{"--chunk applies only to --method chunked"};
    QTest::addRow("linear shapes differ") << with("@q3.csv", "@k.csv", "@v.csv") + QStringList{"--attention", "linear"} << 1
                                          << QStringList{"Q has 3 columns but K has 2"};
    QTest::addRow("unknown command") << QStringList{"atention"} << 2 << QStringList{"unknown command 'atention'"};
    QTest::addRow("no command") << QStringList{} << 2 << QStringList{"usage: aaren"};
  }

  void bad_input_fails_with_a_clear_message() {
    QFETCH(QStringList, args);
    QFETCH(int, exit_code);
    QFETCH(QStringList, fragments);
    const CliResult r = run_cli(expand(args));
    QVERIFY2(r.exited(), qPrintable(r.describe()));
    QVERIFY2(r.exit_code == exit_code, qPrintable(QStringLiteral("expected exit code %1; ").arg(exit_code) + r.describe()));
    for (const QString& fragment : fragments)
      QVERIFY2(r.err.contains(expand(fragment)),
               qPrintable(QStringLiteral("the message lacks '%1'; ").arg(expand(fragment)) + r.describe()));
    QVERIFY2(r.out.isEmpty(), qPrintable(QStringLiteral("an error must print no output; ") + r.describe()));
  }

  // A file the user may not read. Root reads it anyway, so there the case cannot be made.
  void unreadable_file_fails_with_a_clear_message() {
    write(QStringLiteral("locked.csv"), "1,0\n0,1\n1,1\n");
    QFile locked(path(QStringLiteral("locked.csv")));
    QVERIFY(locked.setPermissions(QFileDevice::Permissions()));
    const bool readable_anyway = locked.open(QIODevice::ReadOnly);
    locked.close();
    if (readable_anyway) {
      locked.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
      QSKIP("file permissions do not stop this user from reading (running as root)");
    }
    const CliResult r = run_cli(expand(attention(QStringLiteral("@q.csv"), QStringLiteral("@locked.csv"), QStringLiteral("@v.csv"))));
    locked.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QVERIFY2(r.exited(), qPrintable(r.describe()));
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains(path(QStringLiteral("locked.csv")) + QStringLiteral(": cannot open")), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QStringLiteral("Permission denied")), qPrintable(r.describe()));
    QVERIFY(r.out.isEmpty());
  }
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestCliAttention)
#include "tst_cli_attention.moc"
