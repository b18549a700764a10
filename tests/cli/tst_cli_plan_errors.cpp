// `aaren train` on data too short for the chosen windows: the core refuses with a PlanError (a code
// and its numbers), and the command line says it with the flags that fix it, exactly as it always has.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QTextStream>
#include <cmath>

class TestCliPlanErrors : public QObject {
  Q_OBJECT

 private slots:
  void too_short_parts_name_the_flags_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    QTest::newRow("training") << QStringList{"--seq-len", "96", "--horizon", "96"}
                              << QStringLiteral("aaren: error: the training part has 140 rows but look-back 96 + horizon 96 "
                                                "needs at least 192; lower --seq-len/--horizon or use a longer file\n");
    QTest::newRow("validation") << QStringList{"--seq-len", "8", "--horizon", "30"}
                                << QStringLiteral("aaren: error: the validation part has 20 rows but horizon 30 (its "
                                                  "look-back reaches into the part before) needs at least 30; lower "
                                                  "--horizon, give validation a larger fraction or use a longer file\n");
    QTest::newRow("test") << QStringList{"--seq-len", "8", "--horizon", "30", "--split", "0.6/0.3/0.1"}
                          << QStringLiteral("aaren: error: the test part has 20 rows but horizon 30 (its look-back "
                                            "reaches into the part before) needs at least 30; lower --horizon, give "
                                            "the test part a larger fraction or use a longer file\n");
  }

  void too_short_parts_name_the_flags() {
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = dir.filePath(QStringLiteral("short.csv"));
    {
      QFile file(data);
      QVERIFY(file.open(QIODevice::WriteOnly));
      QTextStream out(&file);
      out << "t,level\n";
      for (int t = 0; t < 200; ++t) out << t << ',' << std::sin(t * 0.3) << '\n';
    }
    const CliResult result = run_cli(QStringList{"train", "--data", data, "--model", "aaren", "--d-model", "8",
                                                 "--heads", "1", "--layers", "1", "--d-ff", "8", "--out",
                                                 dir.filePath(QStringLiteral("run"))} +
                                     options);
    QVERIFY2(result.exited_with(1), qPrintable(result.describe()));
    QVERIFY2(result.err.endsWith(expected), qPrintable(result.describe()));
  }
};

QTEST_GUILESS_MAIN(TestCliPlanErrors)
#include "tst_cli_plan_errors.moc"
