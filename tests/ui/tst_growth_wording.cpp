// The words a class hears about a streaming run say no more than the run measured
// (ui/wording/growth_wording.hpp): "a straight line" only when every run fitted alone lies within
// 0.1 of exponent 1, "bending upward" only when every run lies above 1.1; runs that disagree, a
// single run and a run lost in noise give their numbers and what to do, never a shape.
#include <QtTest>

#include "core/bench/stream_summary.hpp"
#include "ui/wording/growth_wording.hpp"

using namespace aaren;
using namespace aaren::ui;

namespace {

bench::GrowthFit fitOf(double exponent, double low, double high, int passes, int points = 20) {
  bench::GrowthFit fit;
  fit.time_exponent = exponent;
  fit.time_exponent_low = low;
  fit.time_exponent_high = high;
  fit.passes = passes;
  fit.fit_points = points;
  fit.fit_from_tokens = 2048;
  fit.fit_to_tokens = 4096;
  return fit;
}

}  // namespace

class TestGrowthWording : public QObject {
  Q_OBJECT

 private slots:
  void sentenceClaimsOnlyWhatWasMeasured_data() {
    QTest::addColumn<int>("model");
    QTest::addColumn<double>("exponent");
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::addColumn<int>("passes");
    QTest::addColumn<int>("points");
    QTest::addColumn<QString>("says");
    QTest::addColumn<QStringList>("neverSays");
    const QStringList shapes{"straight line", "bending upward"};
    QTest::newRow("Aaren, flat") << 0 << 1.01 << 0.98 << 1.04 << 3 << 20 << "a straight line"
                                 << QStringList{"bending upward", "disagree"};
    QTest::newRow("Aaren, the loaded machine of the issue")
        << 0 << 1.64 << 0.98 << 2.05 << 3 << 20 << "disagree too much" << shapes;
    QTest::newRow("Aaren, one run") << 0 << 1.64 << 1.64 << 1.64 << 1 << 20 << "repeat the run" << shapes;
    QTest::newRow("Aaren, lost in noise") << 0 << 0.0 << 0.0 << 0.0 << 3 << 0 << "too few samples" << shapes;
    QTest::newRow("Aaren, every run bent") << 0 << 1.4 << 1.3 << 1.5 << 3 << 20 << "another program"
                                           << QStringList{"straight line"};
    QTest::newRow("Transformer, growing") << 1 << 1.62 << 1.55 << 1.70 << 3 << 20 << "bending upward"
                                          << QStringList{"straight line"};
    QTest::newRow("Transformer, short run") << 1 << 1.04 << 1.01 << 1.06 << 3 << 20 << "a longer run shows the bend"
                                            << QStringList{"bending upward"};
    QTest::newRow("Transformer, straddling") << 1 << 1.15 << 1.02 << 1.3 << 5 << 20 << "disagree" << shapes;
    // The linear Transformer keeps a constant state, as Aaren does: a straight line is its shape.
    QTest::newRow("linear, flat") << 2 << 1.0 << 0.98 << 1.02 << 3 << 20 << "a straight line"
                                  << QStringList{"bending upward", "a longer run"};
    QTest::newRow("linear, every run bent") << 2 << 1.4 << 1.3 << 1.5 << 3 << 20 << "another program"
                                            << QStringList{"straight line"};
  }
  void sentenceClaimsOnlyWhatWasMeasured() {
    QFETCH(int, model);
    QFETCH(double, exponent);
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(int, passes);
    QFETCH(int, points);
    QFETCH(QString, says);
    QFETCH(QStringList, neverSays);
    const QString sentence = growthSentence(fitOf(exponent, low, high, passes, points), ModelKind(model));
    QVERIFY2(sentence.contains(says), qPrintable(sentence));
    for (const QString& claim : neverSays) QVERIFY2(!sentence.contains(claim), qPrintable(sentence));
    const QString names[] = {QStringLiteral("Aaren"), QStringLiteral("Transformer"), QStringLiteral("Linear Transformer")};
    QVERIFY(sentence.startsWith(names[model]));
  }

  void exponentComesWithItsRange() {
    QCOMPARE(exponentWithRange(fitOf(1.64, 1.2, 2.05, 3)), QStringLiteral("1.64 (1.20\u20132.05 over 3 runs)"));
    QCOMPARE(exponentWithRange(fitOf(1.02, 1.02, 1.02, 1)), QStringLiteral("1.02 (one run)"));
  }

  void answerNamesTheFittedRangeAndBothModels() {
    bench::StreamBenchResult result;
    bench::StreamSample sample;
    sample.tokens = 4096;
    result.samples.push_back(sample);
    result.kinds = {ModelKind::aaren, ModelKind::transformer};
    result.fit[0] = fitOf(1.0, 0.97, 1.03, 3);
    result.fit[1] = fitOf(1.6, 1.5, 1.7, 3);
    const QString answer = measuredGrowthAnswer(result);
    const QString expected = QStringLiteral("Measured here, N = %1\u2013%2: Aaren N^1.00 (0.97\u20131.03 over 3 runs), a "
                                            "straight line; Transformer N^1.60 (1.50\u20131.70 over 3 runs), bending upward.")
                                 .arg(QLocale().toString(qlonglong(2048)), QLocale().toString(qlonglong(4096)));
    QCOMPARE(answer, expected);
    // The loaded machine of the issue: no shape is claimed.
    result.fit[0] = fitOf(1.64, 0.98, 2.05, 3);
    const QString loaded = measuredGrowthAnswer(result);
    QVERIFY2(loaded.contains(QStringLiteral("Aaren N^1.64 (0.98\u20132.05 over 3 runs), the runs disagree")),
             qPrintable(loaded));
    QVERIFY(!loaded.contains(QStringLiteral("straight line")));
    QVERIFY(measuredGrowthAnswer({}).contains(QStringLiteral("nothing yet")));
    // With the linear Transformer streamed, it is named last, as a constant-state model.
    result.kinds.push_back(ModelKind::linear);
    result.fit[2] = fitOf(1.01, 0.99, 1.03, 3);
    const QString three = measuredGrowthAnswer(result);
    QVERIFY2(three.endsWith(QStringLiteral("; Linear Transformer N^1.01 (0.99\u20131.03 over 3 runs), a straight line.")),
             qPrintable(three));
  }
};

QTEST_GUILESS_MAIN(TestGrowthWording)
#include "tst_growth_wording.moc"
