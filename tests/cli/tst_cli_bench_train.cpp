// `aaren bench train` run as a real process: each row's rate is the step's counted operations over
// its time and its share is that rate over the SGEMM rate measured for it, the same numbers in the
// printed table and in the --out CSV; the operations are the core's count (core/bench/step_flops.hpp)
// for the row's model and look-back; --profile times every part of the step within the workers'
// time; an --out that cannot be written is an error that names it.
#include <QtTest>

#include "cli/cli_process.hpp"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "core/bench/step_flops.hpp"

namespace {

QStringList smallRun(const QString& csv) {
  return {"bench",      "train", "--seq-lens", "8,16", "--batch", "2", "--steps",   "1", "--repeats", "1",
          "--d-model",  "8",     "--heads",    "2",    "--layers", "1", "--d-ff",   "16", "--horizon", "4",
          "--channels", "2",     "--threads",  "1",    "--out",    csv};
}

aaren::ModelConfig rowConfig(const QString& model, int seqLen) {
  aaren::ModelConfig c;
  c.kind = *aaren::model_kind_from_string(model.toStdString());
  c.d_model = 8;
  c.heads = 2;
  c.layers = 1;
  c.d_ff = 16;
  c.horizon = 4;
  c.channels = 2;
  c.seq_len = seqLen;
  return c;
}

}  // namespace

class TestCliBenchTrain : public QObject {
  Q_OBJECT

 private slots:
  void rowsAreTheCountedOperationsOverTheTime() {
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("train.csv"));
    const CliResult r = run_cli(smallRun(csv));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("seq_len,model,device,samples_per_second,seconds_per_step,step_gflop,"
                                           "gflops,sgemm_gflops,sgemm_share"));
    QCOMPARE(lines.size(), 1 + 2 * 3);  // two look-backs, three models
    for (const QString& line : lines.mid(1)) {
      const QStringList f = line.split(',');
      QCOMPARE(f.size(), 9);
      const int seqLen = f[0].toInt();
      const double seconds = f[4].toDouble(), gflop = f[5].toDouble(), gflops = f[6].toDouble(),
                   sgemm = f[7].toDouble(), share = f[8].toDouble();
      QCOMPARE(f[2], QStringLiteral("cpu"));
      const double counted = aaren::bench::training_step_flops(rowConfig(f[1], seqLen), 2).total() / 1e9;
      QVERIFY2(std::abs(gflop / counted - 1) < 1e-5, qPrintable(line));
      QVERIFY2(std::abs(gflops * seconds / gflop - 1) < 1e-4, qPrintable(line));
      QVERIFY2(sgemm > 0 && std::abs(share * sgemm / gflops - 1) < 1e-4, qPrintable(line));
      // The printed row shows the same rate and share.
      const QRegularExpression printed(QStringLiteral("\\n +%1 %2 .* (\\d+\\.\\d) +(\\d+)% \\( *(\\d+\\.\\d)\\)")
                                           .arg(seqLen)
                                           .arg(f[1]));
      const QRegularExpressionMatch m = printed.match(r.out);
      QVERIFY2(m.hasMatch(), qPrintable(r.out));
      QCOMPARE(m.captured(1), QString::number(gflops, 'f', 1));
      QCOMPARE(m.captured(2), QString::number(100 * share, 'f', 0));
    }
  }

  // --profile: every part was timed, and the parts' CPU time fits in the workers' time (one worker
  // here), leaving the rest; the printed shares are the CSV's.
  void theProfileSplitsTheWorkersTime() {
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("profile.csv"));
    const CliResult r = run_cli(smallRun(csv) << QStringLiteral("--profile"));
    QVERIFY2(r.exited_with(0), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QLatin1String("where a step's time goes")), qPrintable(r.out));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.first().endsWith(QLatin1String(",matrix_products_seconds,attention_seconds,layernorm_seconds,"
                                                  "gelu_seconds,optimizer_seconds,copies_seconds,worker_seconds")),
             qPrintable(lines.first()));
    QCOMPARE(lines.size(), 1 + 2 * 3);
    for (const QString& line : lines.mid(1)) {
      const QStringList f = line.split(',');
      QCOMPARE(f.size(), 16);
      double parts = 0;
      for (int i = 9; i < 15; ++i) {
        QVERIFY2(f[i].toDouble() > 0, qPrintable(line));
        parts += f[i].toDouble();
      }
      const double workers = f[15].toDouble();
      QVERIFY2(parts < workers * 1.01, qPrintable(line));
      const QRegularExpression printed(
          QStringLiteral("\\n +%1 %2 +([0-9.]+)%").arg(f[0], f[1]));
      const QRegularExpressionMatch m = printed.match(r.out.mid(r.out.indexOf(QLatin1String("where a step's"))));
      QVERIFY2(m.hasMatch(), qPrintable(r.out));
      QCOMPARE(m.captured(1), QString::number(100 * f[9].toDouble() / workers, 'f', 1));
    }
  }

  void anOutThatCannotBeWrittenIsAnError() {
    const CliResult r = run_cli(smallRun(QStringLiteral("/nonexistent-folder/train.csv")));
    QVERIFY2(r.exited_with(1), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(QLatin1String("/nonexistent-folder/train.csv")), qPrintable(r.err));
  }
};

QTEST_MAIN(TestCliBenchTrain)
#include "tst_cli_bench_train.moc"
