// aaren train --task rl and aaren rl evaluate: a small side-by-side run trains, acts and writes its
// folders; evaluate prints "normalized score: MEAN ± SD" for each model with the numbers the core
// computes for the same run and seeds, writes its episodes and steps, and bad options and files are
// refused with exit 2 or 1 and a message naming them.
#include <QtTest>

#include "cli/cli_process.hpp"
#include "core/io/text_file.hpp"
#include "core/rl/decision_run.hpp"
#include "core/rl/offline_dataset.hpp"

class TestCliRlTraining : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString path(const QString& name) const { return dir_.filePath(name); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    aaren::rl::write_dataset(path(QStringLiteral("data.safetensors")).toStdString(),
                             aaren::rl::generate_dataset("cartpole", aaren::rl::DatasetPolicy::medium_expert, 6000, 2));
  }

  void trainsSideBySideAndActs() {
    const CliResult r = run_cli({"train", "--task", "rl", "--data", path(QStringLiteral("data.safetensors")), "--out",
                                 path(QStringLiteral("run")), "--model", "both", "--d-model", "16", "--d-ff", "32",
                                 "--context", "8", "--epochs", "1", "--steps-per-epoch", "20", "--episodes", "2"});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QStringLiteral("episodes (")) && r.out.contains(QStringLiteral("normalized score")) &&
                 r.out.contains(QStringLiteral("median time per step")) &&
                 r.out.contains(QStringLiteral("selection score")),
             qPrintable(r.out));
    for (const char* model : {"aaren", "transformer"}) {
      const std::string config =
          aaren::read_text_file(path(QStringLiteral("run/%1/config.json").arg(model)).toStdString());
      QVERIFY(config.find("\"task\": \"rl\"") != std::string::npos);
      QCOMPARE(aaren::rl::load_decision_run(path(QStringLiteral("run/%1").arg(model)).toStdString()).config.train.lr,
               aaren::rl::decision_train_settings().lr);
    }
  }

  void aStreamTakesItsOwnBatchUnlessGiven() {
    const QString data = path(QStringLiteral("data.safetensors"));
    const CliResult r = run_cli({"train", "--task", "rl", "--data", data, "--out", path(QStringLiteral("stream")), "--act",
                                 "stream", "--d-model", "16", "--d-ff", "32", "--epochs", "1", "--steps-per-epoch", "3",
                                 "--episodes", "1"});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    const aaren::rl::LoadedDecisionRun stream = aaren::rl::load_decision_run(path(QStringLiteral("stream")).toStdString());
    QCOMPARE(stream.config.train.batch, aaren::rl::decision_stream_train_settings().batch);
    QCOMPARE(stream.config.train.epochs, 1);
    QCOMPARE(stream.config.train.lr, aaren::rl::decision_stream_train_settings().lr);
    QCOMPARE(stream.config.model.context, 500);  // whole episodes
    QVERIFY(stream.config.act_mode == aaren::rl::ActMode::stream);
    const CliResult given = run_cli({"train", "--task", "rl", "--data", data, "--out", path(QStringLiteral("stream8")),
                                     "--act", "stream", "--d-model", "16", "--d-ff", "32", "--epochs", "1",
                                     "--steps-per-epoch", "3", "--episodes", "1", "--batch", "8", "--lr", "0.002"});
    QVERIFY2(given.exited_with(0), qPrintable(given.describe()));
    const aaren::rl::LoadedDecisionRun stream8 = aaren::rl::load_decision_run(path(QStringLiteral("stream8")).toStdString());
    QCOMPARE(stream8.config.train.batch, 8);
    QCOMPARE(stream8.config.train.lr, 0.002);
  }

  void evaluatePrintsTheCoresScores() {
    const QString run = path(QStringLiteral("run"));
    const CliResult r = run_cli({"rl", "evaluate", "--run", run, "--episodes", "3", "--seed", "11", "--out",
                                 path(QStringLiteral("episodes.csv")), "--steps-out", path(QStringLiteral("steps.csv"))});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    const QStringList lines = r.out.split('\n');
    int scores = 0;
    for (const char* model : {"aaren", "transformer"}) {
      const aaren::rl::LoadedDecisionRun loaded =
          aaren::rl::load_decision_run(path(QStringLiteral("run/%1").arg(model)).toStdString());
      aaren::rl::EvaluationSettings settings;
      settings.episodes = 3;
      settings.first_seed = 11;
      settings.mode = loaded.config.act_mode;
      settings.target_return = aaren::rl::default_target_return("cartpole");
      const aaren::rl::DecisionEvaluation core =
          aaren::rl::evaluate_decision(loaded.config.model, loaded.config.data, loaded.params, settings);
      const QString expected = QStringLiteral("normalized score: %1 ± %2")
                                   .arg(core.score_mean, 0, 'f', 1)
                                   .arg(core.score_sd, 0, 'f', 1);
      QVERIFY2(lines.contains(expected), qPrintable(expected + " in\n" + r.out));
      ++scores;
    }
    QCOMPARE(scores, 2);
    const QStringList episodes =
        QString::fromStdString(aaren::read_text_file(path(QStringLiteral("episodes.csv")).toStdString()))
            .split('\n', Qt::SkipEmptyParts);
    QCOMPARE(episodes.size(), 1 + 2 * 3);
    QCOMPARE(episodes.front(), QStringLiteral("model,episode,seed,return,normalized_score,steps,terminal"));
    QVERIFY(episodes[1].startsWith(QStringLiteral("aaren,0,11,")));
    QVERIFY(episodes[4].startsWith(QStringLiteral("transformer,0,11,")));
    const QString steps = QString::fromStdString(aaren::read_text_file(path(QStringLiteral("steps.csv")).toStdString()));
    // cartpole: four observation values and one action per row.
    const QStringList rows = steps.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.front(), QStringLiteral("model,episode,step,obs_0,obs_1,obs_2,obs_3,action_0,reward,return_to_go,"
                                          "seconds,state_bytes"));
    QVERIFY(rows[1].startsWith(QStringLiteral("aaren,0,0,")));
    for (const QString& row : rows) QCOMPARE(row.count(','), 11);
  }

  void badInputIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("evaluate: no run") << QStringList{"rl", "evaluate", "--run", "@nothing"} << 1 << "nothing: not a run folder";
    QTest::newRow("evaluate: no episodes") << QStringList{"rl", "evaluate", "--run", "@run", "--episodes", "0"} << 2
                                           << "--episodes must be between 1 and";
    QTest::newRow("evaluate: unknown act mode") << QStringList{"rl", "evaluate", "--run", "@run", "--act", "sideways"} << 2
                                                << "--act";
    QTest::newRow("evaluate: another task's run") << QStringList{"rl", "evaluate", "--run", "@forecast"} << 1
                                                  << "a forecasting run, not a reinforcement-learning run";
    QTest::newRow("train: no data set") << QStringList{"train", "--task", "rl", "--data", "@none.safetensors", "--out", "@x"}
                                        << 1 << "none.safetensors";
    QTest::newRow("train: seq-len") << QStringList{"train", "--task", "rl", "--data", "@data.safetensors", "--out", "@x",
                                                   "--seq-len", "10"}
                                    << 2 << "--seq-len does not apply to a Decision Transformer";
    QTest::newRow("train: no context") << QStringList{"train", "--task", "rl", "--data", "@data.safetensors", "--out", "@x",
                                                      "--context", "0"}
                                       << 2 << "--context must be between 1 and";
    QTest::newRow("train: negative selection") << QStringList{"train", "--task", "rl", "--data", "@data.safetensors",
                                                              "--out", "@x", "--select-episodes", "-1"}
                                               << 2 << "--select-episodes must be between 0 and";
    QTest::newRow("forecast: acts instead") << QStringList{"forecast", "--task", "rl", "--run", "@run"} << 2
                                            << "a reinforcement-learning run acts rather than forecasts: use aaren rl evaluate";
    QTest::newRow("train: on a GPU") << QStringList{"train", "--task", "rl", "--data", "@data.safetensors", "--out", "@x",
                                                    "--device", "cuda"}
                                     << 2 << "Decision Transformers train and act on the CPU only";
  }

  void badInputIsRefused() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, fragment);
    QDir().mkpath(path(QStringLiteral("forecast")));
    QFile config(path(QStringLiteral("forecast/config.json")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("{\"format\": \"aaren-studio-run\", \"version\": 2}");
    config.close();
    for (QString& arg : args)
      if (arg.startsWith('@')) arg = path(arg.mid(1));
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(exitCode), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(fragment), qPrintable(r.describe()));
    QVERIFY(!QDir(path(QStringLiteral("x"))).exists());
  }
};

QTEST_MAIN(TestCliRlTraining)
#include "tst_cli_rl_training.moc"
