// The streaming Transformer's choice of splitting its decode among the cores, fed with decode
// times instead of a clock: nothing below the threshold, alternating timed trials above it, the
// split kept only when clearly faster, a new measurement each time the cache doubles, and reset.
#include <QtTest>

#include "core/model/decode_split_choice.hpp"

using aaren::DecodeSplitChoice;

namespace {

constexpr std::size_t kMin = 1000;
constexpr int kTrials = 3;

// Runs one measurement at `bytes`: split decodes take split_seconds, the others one_core_seconds.
// Returns how many decodes of each kind were timed.
std::pair<int, int> measure(DecodeSplitChoice& choice, std::size_t bytes, double one_core_seconds,
                            double split_seconds) {
  int one = 0, split = 0;
  for (int decode = 0; decode < 2 * kTrials; ++decode) {
    const DecodeSplitChoice::Plan plan = choice.next(bytes);
    if (!plan.timed) break;
    (plan.split ? split : one) += 1;
    choice.record(plan.split ? split_seconds : one_core_seconds);
  }
  return {one, split};
}

}  // namespace

class TestDecodeSplitChoice : public QObject {
  Q_OBJECT

 private slots:
  void smallCachesAreNeverSplitNorTimed() {
    DecodeSplitChoice choice(kMin, kTrials);
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), kMin - 1}) {
      const DecodeSplitChoice::Plan plan = choice.next(bytes);
      QVERIFY(!plan.split && !plan.timed);
    }
  }

  void trialsAlternateStartingWithOneCore() {
    DecodeSplitChoice choice(kMin, kTrials);
    for (int decode = 0; decode < 2 * kTrials; ++decode) {
      const DecodeSplitChoice::Plan plan = choice.next(kMin);
      QVERIFY(plan.timed);
      QCOMPARE(plan.split, decode % 2 == 1);
      choice.record(1.0);
    }
    QVERIFY(!choice.next(kMin).timed);  // measured; the next decodes follow the choice
  }

  void theSplitIsKeptOnlyWhenClearlyFaster_data() {
    QTest::addColumn<double>("oneCore");
    QTest::addColumn<double>("split");
    QTest::addColumn<bool>("kept");
    QTest::newRow("split twice as fast") << 2.0 << 1.0 << true;
    QTest::newRow("split a fifth faster") << 1.0 << 0.8 << true;
    QTest::newRow("split 5% faster: within the noise") << 1.0 << 0.95 << false;
    QTest::newRow("as fast") << 1.0 << 1.0 << false;
    QTest::newRow("split slower") << 1.0 << 1.5 << false;
  }
  void theSplitIsKeptOnlyWhenClearlyFaster() {
    QFETCH(double, oneCore);
    QFETCH(double, split);
    QFETCH(bool, kept);
    DecodeSplitChoice choice(kMin, kTrials);
    QCOMPARE(measure(choice, kMin, oneCore, split), std::make_pair(kTrials, kTrials));
    QCOMPARE(choice.splits(), kept);
    const DecodeSplitChoice::Plan plan = choice.next(kMin + 1);
    QVERIFY(!plan.timed);
    QCOMPARE(plan.split, kept);
  }

  // The median decides: one slow split decode (another program took the core) does not.
  void oneOutlierDoesNotDecide() {
    DecodeSplitChoice choice(kMin, kTrials);
    const double split_times[kTrials] = {0.5, 9.0, 0.5};
    int split_seen = 0;
    for (int decode = 0; decode < 2 * kTrials; ++decode) {
      const DecodeSplitChoice::Plan plan = choice.next(kMin);
      choice.record(plan.split ? split_times[split_seen++] : 1.0);
    }
    QVERIFY(choice.splits());
  }

  void aDoubledCacheIsMeasuredAgain() {
    DecodeSplitChoice choice(kMin, kTrials);
    measure(choice, kMin, 2.0, 1.0);
    QVERIFY(choice.splits());
    QVERIFY(!choice.next(2 * kMin - 1).timed);
    // Out of the caches now, say, where one core is as fast.
    QCOMPARE(measure(choice, 2 * kMin, 1.0, 1.0), std::make_pair(kTrials, kTrials));
    QVERIFY(!choice.splits());
    QVERIFY(!choice.next(4 * kMin - 1).timed);
    QVERIFY(choice.next(4 * kMin).timed);
  }

  void resetForgetsTheMeasurements() {
    DecodeSplitChoice choice(kMin, kTrials);
    measure(choice, 8 * kMin, 2.0, 1.0);
    QVERIFY(choice.splits());
    choice.reset();
    QVERIFY(!choice.splits());
    QVERIFY(choice.next(kMin).timed);  // measured again from the threshold
  }
};

QTEST_GUILESS_MAIN(TestDecodeSplitChoice)
#include "tst_decode_split_choice.moc"
