// `aaren train --task classify` and `aaren forecast --task classify` run as real processes on small
// synthetic .ts files with tiny models: both models side by side, each folder's four files and
// metrics, the printed summary and accuracy table; the predictions CSV (one row per case,
// probabilities summing to 1) and the accuracy it prints, which is the one training reported; the
// yardsticks (metrics.json's test.baselines, the table, `aaren baseline` printing the same); an
// unlabelled wide CSV classified without a score; and the errors: a malformed file names its line
// and column and runs of other tasks are refused (exit 1), bad options are usage errors (exit 2).
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <cmath>
#include <random>

namespace aaren {

namespace {

const QStringList kClasses = {"low", "mid", "high"};

// Univariate cases of three classes told apart by their level (-1.5, 0, 1.5; noise 0.3), of
// `shortest` to `longest` steps, cycling through low, mid, high; every seventh case misses a value.
QString levels_ts(int per_class, unsigned seed, int shortest, int longest) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(shortest, longest);
  std::normal_distribution<double> noise(0.0, 0.3);
  QString text = QStringLiteral(
      "@problemName Levels\n@missing true\n@univariate true\n@equalLength false\n"
      "@classLabel true low mid high\n@data\n");
  for (int i = 0; i < 3 * per_class; ++i) {
    const int label = i % 3;
    const int n = length(rng);
    QStringList values;
    for (int t = 0; t < n; ++t)
      values << (i % 7 == 0 && t == 2 ? QStringLiteral("?") : QString::number(1.5 * (label - 1) + noise(rng), 'f', 4));
    text += values.join(',') + ':' + kClasses[label] + '\n';
  }
  return text;
}

// An unlabelled wide CSV: label,t0,...; every label empty, shorter cases ended by empty cells.
QString unlabelled_wide_csv(const std::vector<std::vector<double>>& cases) {
  std::size_t longest = 0;
  for (const auto& c : cases) longest = std::max(longest, c.size());
  QString text = QStringLiteral("label");
  for (std::size_t t = 0; t < longest; ++t) text += QStringLiteral(",t%1").arg(t);
  text += '\n';
  for (const auto& c : cases) {
    for (std::size_t t = 0; t < longest; ++t) text += ',' + (t < c.size() ? QString::number(c[t]) : QString());
    text += '\n';
  }
  return text;
}

QString write_text(const QString& path, const QString& text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write(text.toUtf8());
  return path;
}

QJsonObject read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

QStringList read_lines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

// A model small enough to train in moments.
QStringList tiny_model() {
  return {"--epochs", "5",  "--d-model", "16", "--heads", "2",     "--layers", "1",
          "--d-ff",   "32", "--batch",   "8",  "--lr",    "0.003", "--seed",   "3"};
}

void verify_run_folder(const QString& dir, int test_cases) {
  for (const char* name : {"config.json", "model.safetensors", "metrics.json", "loss.csv"})
    QVERIFY2(QFile::exists(dir + "/" + name), qPrintable(dir + "/" + name));
  const QJsonObject config = read_json(dir + "/config.json");
  QCOMPARE(config.value("task").toString(), QStringLiteral("classify"));
  QCOMPARE(config.value("data").toObject().value("class_names").toArray().size(), 3);
  const QJsonObject metrics = read_json(dir + "/metrics.json");
  QCOMPARE(metrics.value("task").toString(), QStringLiteral("classify"));
  const QJsonArray epochs = metrics.value("epochs").toArray();
  QCOMPARE(epochs.size(), 5);
  QCOMPARE(read_lines(dir + "/loss.csv").size(), 1 + 5);
  for (const QJsonValue& epoch : epochs) {
    const double train = epoch.toObject().value("train_accuracy").toDouble(-1),
                 val = epoch.toObject().value("val_accuracy").toDouble(-1);
    QVERIFY2(train >= 0 && train <= 1 && val >= 0 && val <= 1, qPrintable(QJsonDocument(epoch.toObject()).toJson()));
  }
  const QJsonObject test = metrics.value("test").toObject();
  QCOMPARE(test.value("cases").toInt(), test_cases);
  const double accuracy = test.value("accuracy").toDouble(-1);
  QVERIFY2(accuracy >= 0 && accuracy <= 1, qPrintable(QString::number(accuracy)));
  const QJsonArray classes = test.value("classes").toArray(), confusion = test.value("confusion").toArray();
  QCOMPARE(classes.size(), 3);
  QCOMPARE(confusion.size(), 3);
  long correct = 0, total = 0;
  for (int k = 0; k < 3; ++k) {
    const QJsonObject c = classes[k].toObject();
    QCOMPARE(c.value("name").toString(), kClasses[k]);
    const QJsonArray row = confusion[k].toArray();
    QCOMPARE(row.size(), 3);
    long support = 0, predicted_as = 0;
    for (int j = 0; j < 3; ++j) {
      support += row[j].toInt();
      predicted_as += confusion[j].toArray()[k].toInt();
    }
    correct += row[k].toInt();
    total += support;
    QCOMPARE(c.value("support").toInt(), int(support));
    QVERIFY2(c.value("recall").isDouble() && c.value("f1").isDouble(), qPrintable(kClasses[k]));
    // A class never predicted has no precision; one predicted has its share of hits.
    QCOMPARE(c.value("precision").isDouble(), predicted_as > 0);
    if (predicted_as > 0) QCOMPARE(c.value("precision").toDouble(), double(row[k].toInt()) / double(predicted_as));
  }
  QCOMPARE(total, long(test_cases));
  QCOMPARE(accuracy, double(correct) / double(total));
}

}  // namespace

class TestCliClassify : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    train_ = write_text(dir_.path() + "/Levels_TRAIN.ts", levels_ts(16, 21, 6, 14));
    test_ = write_text(dir_.path() + "/Levels_TEST.ts", levels_ts(8, 22, 6, 14));
    run_ = dir_.path() + "/levels";
  }

  void trainsBothModelsSideBySide() {
    const CliResult r = run_cli(QStringList{"train", "--task", "classify", "--data", train_, "--test", test_, "--model",
                                            "both", "--val-fraction", "0.2", "--out", run_} +
                                tiny_model());
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    verify_run_folder(run_ + "/aaren", 24);
    verify_run_folder(run_ + "/transformer", 24);
    // 48 cases, 16 of each class: 3 of each (round(0.2 * 16)) validate.
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("read 48 cases of \\S*Levels_TRAIN\\.ts: 1 dimension, "
                                                              "[0-9]+ to [0-9]+ steps, 3 classes"))),
             qPrintable(r.describe()));
    QVERIFY2(r.out.contains("split: 39 training / 9 validation cases (stratified); test: 24 cases of"),
             qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("aaren +transformer"))), qPrintable(r.describe()));
    for (const char* row : {"validation accuracy", "test accuracy", "test macro F1"})
      QVERIFY2(
          r.out.contains(QRegularExpression(QString(row) + QStringLiteral(" +[0-9]\\.[0-9]{4} +[0-9]\\.[0-9]{4}"))),
          qPrintable(QString(row) + "\n" + r.describe()));
    // The table's test accuracy is metrics.json's, for each model in its column.
    const QRegularExpressionMatch table =
        QRegularExpression(QStringLiteral("test accuracy +([0-9]\\.[0-9]{4}) +([0-9]\\.[0-9]{4})")).match(r.out);
    const auto test_accuracy = [&](const char* model) {
      return read_json(run_ + "/" + model + "/metrics.json").value("test").toObject().value("accuracy").toDouble();
    };
    QCOMPARE(table.captured(1), QString::asprintf("%.4f", test_accuracy("aaren")));
    QCOMPARE(table.captured(2), QString::asprintf("%.4f", test_accuracy("transformer")));
    // The yardsticks on the same test cases, printed as metrics.json has them.
    const QJsonObject baselines =
        read_json(run_ + "/aaren/metrics.json").value("test").toObject().value("baselines").toObject();
    QCOMPARE(baselines.value("majority_class").toString(), QStringLiteral("low"));
    QCOMPARE(baselines.value("z_normalised").toBool(false), true);
    for (const char* field : {"majority", "euclidean", "dtw_full", "dtw_window", "window_loo_accuracy"}) {
      const double value = baselines.value(field).toDouble(-1);
      QVERIFY2(value >= 0 && value <= 1, field);
    }
    QCOMPARE(baselines.value("majority").toDouble(), 8.0 / 24.0);  // 8 "low" of 24; the classes tie in TRAIN
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("1-NN DTW, full window +") +
                                               QString::asprintf("%.4f", baselines.value("dtw_full").toDouble()))),
             qPrintable(r.describe()));
    QCOMPARE(read_json(run_ + "/transformer/metrics.json").value("test").toObject().value("baselines").toObject(),
             baselines);
    baselines_ = baselines;
  }

  void baselineCommandPrintsTheYardsticks() {
    const CliResult r = run_cli({"baseline", "--task", "classify", "--data", train_, "--test", test_});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("Levels: 48 training cases, 24 test cases, 3 classes"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("test accuracy of the yardsticks (cases z-normalised):"), qPrintable(r.describe()));
    const auto printed = [&](const QString& label) {
      const QRegularExpressionMatch m =
          QRegularExpression(QRegularExpression::escape(label) + QStringLiteral("[^\\n]*? ([0-9]\\.[0-9]{4})\\n"))
              .match(r.out);
      return m.hasMatch() ? m.captured(1) : QString();
    };
    // The same numbers training wrote into metrics.json.
    QVERIFY(!baselines_.isEmpty());
    QCOMPARE(printed("majority class ('low')"), QString::asprintf("%.4f", baselines_.value("majority").toDouble()));
    QCOMPARE(printed("1-NN Euclidean"), QString::asprintf("%.4f", baselines_.value("euclidean").toDouble()));
    QCOMPARE(printed("1-NN DTW, full window"), QString::asprintf("%.4f", baselines_.value("dtw_full").toDouble()));
    QCOMPARE(printed(QStringLiteral("1-NN DTW, window %1 steps").arg(baselines_.value("window").toInt())),
             QString::asprintf("%.4f", baselines_.value("dtw_window").toDouble()));
    // Level is what tells the classes apart, so z-normalising each case loses it; as given it wins.
    const CliResult raw =
        run_cli({"baseline", "--task", "classify", "--data", train_, "--test", test_, "--scaling", "none"});
    QVERIFY2(raw.exited_with(0) && raw.out.contains("(cases as given)"), qPrintable(raw.describe()));
    const QRegularExpressionMatch euclidean =
        QRegularExpression(QStringLiteral("1-NN Euclidean +([0-9]\\.[0-9]{4})")).match(raw.out);
    QVERIFY2(euclidean.captured(1).toDouble() > 0.9, qPrintable(raw.describe()));

    const CliResult missing = run_cli({"baseline", "--task", "classify", "--data", train_, "--test", "absent.ts"});
    QVERIFY2(missing.exited_with(1) && missing.err.contains("absent.ts"), qPrintable(missing.describe()));
  }

  void crossValidationChoosesTheEpochs() {
    const QString dir = dir_.path() + "/levels-cv";
    QStringList args = QStringList{"train", "--task", "classify", "--data", train_, "--test", test_, "--cv-folds", "3",
                                   "--out", dir} +
                       tiny_model();
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("cross-validation: 3 folds of the 48 training cases (stratified), then all of them"),
             qPrintable(r.describe()));
    const QJsonObject metrics = read_json(dir + "/metrics.json");
    const QJsonObject cv = metrics.value("cross_validation").toObject();
    QCOMPARE(cv.value("folds").toInt(), 3);
    QCOMPARE(cv.value("accuracy").toArray().size(), 5);  // tiny_model's 5 epochs on every fold
    const int chosen = cv.value("chosen_epoch").toInt();
    QVERIFY(chosen >= 1 && chosen <= 5);
    QCOMPARE(metrics.value("epochs").toArray().size(), chosen);
    QCOMPARE(read_json(dir + "/config.json").value("data").toObject().value("cv_folds").toInt(), 3);
  }

  // Below 1000 training cases the epochs are chosen by 5-fold cross-validation unless a held-out
  // part is asked for, and each model is an ensemble of three unless one is asked for; the
  // augmentation chosen is kept in config.json.
  void smallTrainingSetsCrossValidateByDefault() {
    const QString dir = dir_.path() + "/levels-default";
    const CliResult r = run_cli(QStringList{"train", "--task", "classify", "--data", train_, "--augment", "jitter,slice",
                                            "--out", dir} +
                                tiny_model());
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("cross-validation: 5 folds of the 48 training cases (stratified), then all of them"),
             qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("cross-validated accuracy +[0-9]\\.[0-9]{4}"))),
             qPrintable(r.describe()));
    // Each epoch says which training it belongs to: a fold's, or the last one on every case.
    QVERIFY2(r.out.contains("fold 5/5  epoch 5/5  train") && r.out.contains("all cases  epoch 1/"),
             qPrintable(r.describe()));
    const QJsonObject config = read_json(dir + "/config.json");
    QCOMPARE(config.value("data").toObject().value("cv_folds").toInt(), 5);
    // ... and each model an ensemble of three.
    QVERIFY2(r.out.contains("each model is an ensemble of 3 classifiers"), qPrintable(r.describe()));
    QCOMPARE(config.value("model").toObject().value("members").toInt(), 3);
    QCOMPARE(config.value("model").toObject().value("augmentation").toString(), QStringLiteral("slice,jitter"));
    QCOMPARE(read_json(dir + "/metrics.json").value("cross_validation").toObject().value("folds").toInt(), 5);

    const CliResult held_out = run_cli(QStringList{"train", "--task", "classify", "--data", train_, "--cv-folds", "0",
                                                   "--ensemble", "1", "--out", dir + "-held-out"} +
                                       tiny_model());
    QVERIFY2(held_out.exited_with(0) && held_out.out.contains("split: 39 training / 9 validation cases (stratified)"),
             qPrintable(held_out.describe()));
    QCOMPARE(read_json(dir + "-held-out/config.json").value("data").toObject().value("cv_folds").toInt(), 0);
    QCOMPARE(read_json(dir + "-held-out/config.json").value("model").toObject().value("members").toInt(), 1);
    QVERIFY(!held_out.out.contains("ensemble"));
    QCOMPARE(read_json(dir + "-held-out/config.json").value("model").toObject().value("augmentation").toString(),
             QStringLiteral("none"));
  }

  // An ensemble is one run folder: config.json says how many members, and classifying with it
  // gives the accuracy training reported.
  void anEnsembleIsOneRun() {
    const QString dir = dir_.path() + "/levels-ensemble";
    const CliResult r = run_cli(QStringList{"train", "--task", "classify", "--data", train_, "--test", test_,
                                            "--ensemble", "2", "--out", dir} +
                                tiny_model());
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QCOMPARE(read_json(dir + "/config.json").value("model").toObject().value("members").toInt(), 2);
    const double trained = read_json(dir + "/metrics.json").value("test").toObject().value("accuracy").toDouble(-1);
    const CliResult classified = run_cli({"forecast", "--task", "classify", "--run", dir, "--data", test_});
    QVERIFY2(classified.exited_with(0) &&
                 classified.out.contains(QStringLiteral("accuracy %1,").arg(QString::asprintf("%.4f", trained))),
             qPrintable(classified.describe()));
  }

  void classifiesTheTestFile() {
    const QString csv = dir_.path() + "/predictions.csv";
    const CliResult r =
        run_cli({"forecast", "--task", "classify", "--run", run_ + "/aaren", "--data", test_, "--out", csv});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    const QStringList lines = read_lines(csv);
    QCOMPARE(lines.size(), 1 + 24);
    QCOMPARE(lines.front(), QStringLiteral("case,label,predicted,p_low,p_mid,p_high"));
    long correct = 0;
    for (int i = 1; i < lines.size(); ++i) {
      const QStringList cells = lines[i].split(',');
      QCOMPARE(cells.size(), 6);
      QCOMPARE(cells[0], QString::number(i));
      QCOMPARE(cells[1], kClasses[(i - 1) % 3]);
      QVERIFY(kClasses.contains(cells[2]));
      double sum = 0, most = -1;
      int argmax = -1;
      for (int k = 0; k < 3; ++k) {
        const double p = cells[3 + k].toDouble();
        QVERIFY(p >= 0 && p <= 1);
        sum += p;
        if (p > most) most = p, argmax = k;
      }
      QVERIFY2(std::abs(sum - 1) < 1e-6, qPrintable(lines[i]));
      QCOMPARE(cells[2], kClasses[argmax]);
      correct += cells[1] == cells[2];
    }
    // The accuracy it prints is the one training reported on the same file, and the CSV's.
    const double reported =
        read_json(run_ + "/aaren/metrics.json").value("test").toObject().value("accuracy").toDouble();
    QCOMPARE(double(correct) / 24.0, reported);
    const QRegularExpressionMatch printed =
        QRegularExpression(QStringLiteral("on 24 labelled cases: accuracy ([0-9]\\.[0-9]{4}), macro F1")).match(r.out);
    QVERIFY2(printed.hasMatch(), qPrintable(r.describe()));
    QCOMPARE(printed.captured(1), QString::asprintf("%.4f", reported));
    QVERIFY2(r.out.contains("confusion matrix (rows: true class, columns: predicted)"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("wrote 24 cases to"), qPrintable(r.describe()));
  }

  void classifiesAnUnlabelledWideCsv() {
    const QString data =
        write_text(dir_.path() + "/unlabelled.csv", unlabelled_wide_csv({{1.4, 1.6, 1.5, 1.7, 1.2, 1.5, 1.6},
                                                                         {-1.5, -1.4, -1.6, -1.5, -1.3, -1.7},
                                                                         {0.1, -0.1, 0.0, 0.2, 0.1, -0.2, 0.0, 0.1}}));
    const QString csv = dir_.path() + "/unlabelled-predictions.csv";
    const CliResult r =
        run_cli({"forecast", "--task", "classify", "--run", run_ + "/transformer", "--data", data, "--out", csv});
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("have no labels: no accuracy to report") && !r.out.contains("accuracy 0"),
             qPrintable(r.describe()));
    const QStringList lines = read_lines(csv);
    QCOMPARE(lines.size(), 1 + 3);
    for (int i = 1; i <= 3; ++i) {
      const QStringList cells = lines[i].split(',');
      QCOMPARE(cells.size(), 6);
      QCOMPARE(cells[0], QString::number(i));
      QVERIFY2(cells[1].isEmpty(), qPrintable(lines[i]));
      QVERIFY(kClasses.contains(cells[2]));
    }
  }

  void runsOfOtherTasksAreRefused() {
    const QString forecasting = dir_.path() + "/forecasting";
    const CliResult train =
        run_cli({"train",     "--data",    QStringLiteral(AAREN_SOURCE_DIR "/datasets/R_nottem.csv"),
                 "--model",   "aaren",     "--out",
                 forecasting, "--seq-len", "12",
                 "--horizon", "4",         "--d-model",
                 "8",         "--heads",   "2",
                 "--layers",  "1",         "--d-ff",
                 "16",        "--epochs",  "1"});
    QVERIFY2(train.exited_with(0), qPrintable(train.describe()));
    const CliResult as_classifier = run_cli({"forecast", "--task", "classify", "--run", forecasting, "--data", test_});
    QVERIFY2(as_classifier.exited_with(1) && as_classifier.err.contains("a forecasting run, not a classification run"),
             qPrintable(as_classifier.describe()));
    const CliResult as_events = run_cli({"forecast", "--task", "events", "--run", run_ + "/aaren"});
    QVERIFY2(as_events.exited_with(1) && as_events.err.contains("a classification run, not an event-model run"),
             qPrintable(as_events.describe()));
  }

  void sideBySideRunNamesItsModels() {
    const CliResult r = run_cli({"forecast", "--task", "classify", "--run", run_, "--data", test_});
    QVERIFY2(r.exited_with(2) && r.err.contains("several models side by side") && r.err.contains(run_ + "/aaren") &&
                 r.err.contains(run_ + "/transformer"),
             qPrintable(r.describe()));
  }

  void malformedFileNamesLineAndColumn() {
    const QString bad = write_text(dir_.path() + "/bad.ts",
                                   "@problemName Bad\n@classLabel true low high\n@data\n1,2,3:low\n3,2,1:high\n"
                                   "1.0,2.0,abc:low\n");
    const CliResult r = run_cli(
        QStringList{"train", "--task", "classify", "--data", bad, "--out", dir_.path() + "/bad-run"} + tiny_model());
    QVERIFY2(r.exited_with(1) && r.err.contains("bad.ts:6:9:"), qPrintable(r.describe()));
    QVERIFY(!QFile::exists(dir_.path() + "/bad-run"));
  }

  void badOptionsAreUsageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    const QStringList train = {"train", "--task", "classify", "--data", "train.ts", "--out", "never"};
    QTest::newRow("pooling") << train + QStringList{"--pooling", "max"}
                             << QStringLiteral("--pooling must be mean or last");
    QTest::newRow("label-smoothing") << train + QStringList{"--label-smoothing", "1"}
                                     << QStringLiteral("--label-smoothing must be at least 0 and below 1");
    QTest::newRow("val-fraction") << train + QStringList{"--val-fraction", "0"}
                                  << QStringLiteral("--val-fraction must be above 0 and at most 0.9");
    QTest::newRow("seq-len") << train + QStringList{"--seq-len", "12"}
                             << QStringLiteral("--seq-len does not apply to a classifier");
    QTest::newRow("horizon") << train + QStringList{"--horizon", "4"}
                             << QStringLiteral("--horizon does not apply to a classifier");
    QTest::newRow("model") << train + QStringList{"--model", "rnn"}
                           << QStringLiteral("--model must be aaren, transformer, linear, both or all");
    QTest::newRow("heads") << QStringList{"train", "--task", "classify", "--data", "train.ts", "--out", "never",
                                          "--d-model", "16", "--heads", "3"}
                           << QStringLiteral("does not divide");
    QTest::newRow("task") << QStringList{"train", "--task", "sorting", "--data", "train.ts", "--out", "never"}
                          << QStringLiteral("--task must be forecast, events, classify or rl");
    QTest::newRow("cv-folds 1") << train + QStringList{"--cv-folds", "1"}
                                << QStringLiteral("--cv-folds must be 0 (a held-out part) or at least 2, got 1");
    QTest::newRow("cv-folds with val-fraction") << train + QStringList{"--cv-folds", "3", "--val-fraction", "0.3"}
                                                << QStringLiteral("--val-fraction does not apply with --cv-folds");
    QTest::newRow("cv-folds word") << train + QStringList{"--cv-folds", "many"}
                                   << QStringLiteral("--cv-folds must be auto or a whole number from 0 to 100, got 'many'");
    QTest::newRow("ensemble") << train + QStringList{"--ensemble", "0"}
                              << QStringLiteral("--ensemble must be auto or a whole number from 1 to 32, got '0'");
    QTest::newRow("augment") << train + QStringList{"--augment", "warp"}
                             << QStringLiteral("--augment: augmentation 'warp' is not one of slice, scale and jitter");
    QTest::newRow("baseline without --test")
        << QStringList{"baseline", "--task", "classify", "--data", "train.ts"} << QStringLiteral("--test is required");
    QTest::newRow("baseline scaling") << QStringList{"baseline", "--task", "classify", "--data", "train.ts", "--test",
                                                     "test.ts", "--scaling", "zscore"}
                                      << QStringLiteral("--scaling must be auto, per-series or none");
    QTest::newRow("baseline of another task")
        << QStringList{"baseline", "--task", "events", "--data", "a.csv"} << QStringLiteral("baseline takes --task classify");
    QTest::newRow("baseline of forecasting")
        << QStringList{"baseline", "--data", "a.csv"} << QStringLiteral("baseline takes --task classify");
  }

  void badOptionsAreUsageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const CliResult r = run_cli(args);
    QVERIFY2(r.exited_with(2) && r.err.contains(expected), qPrintable(r.describe()));
    QVERIFY(!QFile::exists("never"));
  }

  void helpExitsCleanly_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("usage");
    QTest::newRow("train") << QStringLiteral("train") << QStringLiteral("usage: aaren train --task classify");
    QTest::newRow("forecast") << QStringLiteral("forecast") << QStringLiteral("usage: aaren forecast --task classify");
  }

  void helpExitsCleanly() {
    QFETCH(QString, command);
    QFETCH(QString, usage);
    const CliResult r = run_cli({command, "--task", "classify", "--help"});
    QVERIFY2(r.exited_with(0) && r.out.contains(usage), qPrintable(r.describe()));
  }

 private:
  QTemporaryDir dir_;
  QString train_, test_, run_;
  QJsonObject baselines_;  // metrics.json's, from trainsBothModelsSideBySide
};

}  // namespace aaren

QTEST_GUILESS_MAIN(aaren::TestCliClassify)
#include "tst_cli_classify.moc"
