// aaren rl replay: every row is the core environment's own step from the given state (row 0 the
// start), actions as applied after clipping, an episode that ends early stops and says so, and bad
// options and files are refused with exit 2 or 1 and a message naming them.
#include <QtTest>

#include "cli/cli_process.hpp"
#include "core/rl/environment.hpp"
#include "core/rl/offline_dataset.hpp"

class TestCliRl : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString path(const QString& name) const { return dir_.filePath(name); }
  void write(const QString& name, const QByteArray& text) {
    QFile file(path(name));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    write(QStringLiteral("actions.csv"), "1.5\n5\n-9\n0.25\n");
    write(QStringLiteral("two_columns.csv"), "1,2\n");
  }

  void replayIsTheCoresSteps_data() {
    QTest::addColumn<QString>("env");
    QTest::addColumn<QList<double>>("start");
    QTest::newRow("pendulum") << QStringLiteral("pendulum") << QList<double>{1.0, 0.5};
    QTest::newRow("cartpole") << QStringLiteral("cartpole") << QList<double>{0.1, -0.2, 0.05, 0.3};
    QTest::newRow("cartpole-swingup") << QStringLiteral("cartpole-swingup") << QList<double>{0.0, 0.0, 3.1, 0.0};
  }

  void replayIsTheCoresSteps() {
    QFETCH(QString, env);
    QFETCH(QList<double>, start);
    QStringList startText;
    for (const double value : start) startText << QString::number(value, 'g', 17);
    const CliResult r = run_cli({"rl", "replay", "--env", env, "--start", startText.join(','), "--actions", path("actions.csv")});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    const QStringList lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 1 + 4);
    const auto environment = aaren::rl::make_environment(env.toStdString());
    const std::vector<double> first = environment->reset_to(std::vector<double>(start.begin(), start.end()));
    const int observed = int(first.size());
    QCOMPARE(lines[0].split(',').size(), 1 + observed + 1 + 3);
    const QStringList row0 = lines[1].split(',');
    QCOMPARE(row0[0], QStringLiteral("0"));
    for (int i = 0; i < observed; ++i) QCOMPARE(row0[1 + i].toDouble(), first[std::size_t(i)]);
    QVERIFY(row0[1 + observed].isEmpty());
    const double actions[] = {1.5, 5, -9, 0.25};
    for (int t = 0; t < 4; ++t) {
      const aaren::rl::StepResult step = environment->step(std::span<const double>(&actions[t], 1));
      const QStringList row = lines[2 + t].split(',');
      QCOMPARE(row[0].toInt(), t + 1);
      for (int i = 0; i < observed; ++i) QCOMPARE(row[1 + i].toDouble(), step.observation[std::size_t(i)]);
      const aaren::rl::EnvironmentSpec& spec = environment->spec();
      QCOMPARE(row[1 + observed].toDouble(), std::clamp(actions[t], spec.action_low, spec.action_high));
      QCOMPARE(row[2 + observed].toDouble(), step.reward);
      QCOMPARE(row[3 + observed], step.terminal ? QStringLiteral("1") : QStringLiteral("0"));
    }
  }

  void anEpisodeThatEndsStopsAndSaysSo() {
    const CliResult r = run_cli({"rl", "replay", "--env", "cartpole", "--start", "2.399,1,0,0", "--actions", path("actions.csv"),
                                 "--out", path("steps.csv")});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QStringLiteral("ended at step 1 (terminal); the remaining 3 action(s) were not applied")), qPrintable(r.err));
    QFile steps(path("steps.csv"));
    QVERIFY(steps.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(steps.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines.last().endsWith(QStringLiteral(",1,0")));  // terminal, not a timeout
  }

  void generateWritesTheCoresDataSet() {
    const QString out = path(QStringLiteral("medium.safetensors"));
    const CliResult r = run_cli({"rl", "generate", "--env", "cartpole", "--policy", "medium", "--steps", "3000", "--seed", "7", "--out", out});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QStringLiteral("3000 steps")) && r.out.contains(QStringLiteral("normalized score: mean")), qPrintable(r.out));
    const aaren::rl::OfflineDataset read = aaren::rl::read_dataset(out.toStdString());
    const aaren::rl::OfflineDataset expected = aaren::rl::generate_dataset("cartpole", aaren::rl::DatasetPolicy::medium, 3000, 7);
    QVERIFY(read.observations == expected.observations && read.actions == expected.actions && read.rewards == expected.rewards);
    QCOMPARE(read.policy, std::string("medium"));
  }

  void badInputIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown env") << QStringList{"rl", "replay", "--env", "moon", "--start", "1", "--actions", "@actions.csv"} << 2
                                 << "unknown environment 'moon'; choose one of: pendulum, cartpole, cartpole-swingup";
    QTest::newRow("start not a number") << QStringList{"rl", "replay", "--env", "pendulum", "--start", "1,x", "--actions", "@actions.csv"}
                                        << 2 << "--start: 'x' is not a number";
    QTest::newRow("too few start values") << QStringList{"rl", "replay", "--env", "pendulum", "--start", "1", "--actions", "@actions.csv"}
                                          << 2 << "starts from 2 values (theta, thetadot), not 1";
    QTest::newRow("missing actions") << QStringList{"rl", "replay", "--env", "pendulum", "--start", "1,2"} << 2 << "--actions is required";
    QTest::newRow("generate: unknown env") << QStringList{"rl", "generate", "--env", "moon", "--policy", "random", "--steps", "10", "--out", "@d.safetensors"}
                                           << 2 << "unknown environment 'moon'";
    QTest::newRow("generate: unknown policy") << QStringList{"rl", "generate", "--env", "cartpole", "--policy", "novice", "--steps", "10", "--out", "@d.safetensors"}
                                              << 2 << "unknown policy 'novice'; choose one of: random, medium, medium-replay, medium-expert, expert";
    QTest::newRow("generate: no steps") << QStringList{"rl", "generate", "--env", "cartpole", "--policy", "random", "--steps", "0", "--out", "@d.safetensors"}
                                        << 2 << "--steps must be between 1 and";
    QTest::newRow("generate: negative steps") << QStringList{"rl", "generate", "--env", "cartpole", "--policy", "random", "--steps", "-5", "--out", "@d.safetensors"}
                                              << 2 << "--steps";
    QTest::newRow("generate: into a missing folder") << QStringList{"rl", "generate", "--env", "cartpole", "--policy", "random", "--steps", "10", "--out", "@none/d.safetensors"}
                                                     << 1 << "none/d.safetensors";
    QTest::newRow("unknown rl command") << QStringList{"rl", "fly"} << 2 << "unknown command 'fly' for 'aaren rl'";
    QTest::newRow("no actions file") << QStringList{"rl", "replay", "--env", "pendulum", "--start", "1,2", "--actions", "@none.csv"}
                                     << 1 << "none.csv: cannot open";
    QTest::newRow("two actions a row") << QStringList{"rl", "replay", "--env", "pendulum", "--start", "1,2", "--actions", "@two_columns.csv"}
                                       << 1 << "pendulum takes 1 action value(s) a step, the file has 2 per row";
  }

  void badInputIsRefused() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, fragment);
    for (QString& arg : args)
      if (arg.startsWith('@')) arg = path(arg.mid(1));
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(exitCode), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(fragment), qPrintable(r.describe()));
    QVERIFY(r.out.isEmpty());
  }
};

QTEST_MAIN(TestCliRl)
#include "tst_cli_rl.moc"
