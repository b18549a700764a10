// The read-bandwidth probe behind `aaren bench stream`: what it reports about its own run, and
// its errors. Its rate is a measurement, so only its sign is checked.
#include <QtTest>

#include <stdexcept>

#include "core/bench/memory_bandwidth.hpp"

class TestMemoryBandwidth : public QObject {
  Q_OBJECT

 private slots:
  void reportsARateForTheBufferAndPassesAsked() {
    const aaren::bench::ReadBandwidth probe = aaren::bench::measure_read_bandwidth(std::size_t(4) << 20, 3);
    QCOMPARE(probe.buffer_bytes, std::size_t(4) << 20);
    QCOMPARE(probe.passes, 3);
    QVERIFY2(probe.bytes_per_second > 0, qPrintable(QString::number(probe.bytes_per_second)));
  }

  void rejectsABufferThatFitsInCacheAndZeroPasses() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::bench::measure_read_bandwidth(1024, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, aaren::bench::measure_read_bandwidth(std::size_t(1) << 20, 0));
  }
};

QTEST_GUILESS_MAIN(TestMemoryBandwidth)
#include "tst_memory_bandwidth.moc"
