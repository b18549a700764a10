// BackgroundJob, the one owner of background work: a result that finishes after cancel() is
// delivered as cancelled(), never as a success; only the newest job's progress and result reach the
// window; a time-series or event-log read reports its progress and stops through the job's
// CancelToken; shutDown() returns at once while the job is still busy and reports when the thread
// has ended; the destructor does not wait for the work. The work blocks on a gate the test opens,
// so the order of events is fixed without sleeping.
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "core/data/time_series_csv.hpp"
#include "core/events/event_log.hpp"
#include "ui/workers/background_job.hpp"

using aaren::ui::BackgroundJob;
using aaren::ui::JobContext;

namespace {

constexpr int kTimeoutMs = 10000;

// Opened once by the test; work waiting on it continues from then on.
class Gate {
 public:
  void open() {
    {
      const std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    opened_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

// Work that says it has begun, waits for the gate, then returns `result`, ignoring cancellation
// (as a result already on its way would).
aaren::ui::JobWork gatedWork(std::shared_ptr<Gate> gate, std::shared_ptr<std::atomic<bool>> begun, int result) {
  return [gate, begun, result](JobContext&) {
    begun->store(true);
    gate->wait();
    return QVariant(result);
  };
}

}  // namespace

class TestBackgroundJob : public QObject {
  Q_OBJECT

 private slots:
  void resultFinishingAfterCancelIsNotASuccess() {
    BackgroundJob job;
    QSignalSpy succeeded(&job, &BackgroundJob::succeeded);
    QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
    auto gate = std::make_shared<Gate>();
    auto begun = std::make_shared<std::atomic<bool>>(false);
    job.start(gatedWork(gate, begun, 7));
    QTRY_VERIFY_WITH_TIMEOUT(begun->load(), kTimeoutMs);
    QVERIFY(job.isRunning());
    job.cancel();
    gate->open();  // the work returns its result regardless
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, kTimeoutMs);
    QCOMPARE(succeeded.size(), 0);
    QVERIFY(!job.isRunning());
  }

  void newestJobWins() {
    BackgroundJob job;
    QSignalSpy succeeded(&job, &BackgroundJob::succeeded);
    QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
    QSignalSpy progress(&job, &BackgroundJob::progress);
    auto gate = std::make_shared<Gate>();
    auto begun = std::make_shared<std::atomic<bool>>(false);
    auto older = [gate, begun](JobContext& context) {
      begun->store(true);
      gate->wait();
      context.reportProgress(0.25);  // too late: a newer job was started
      return QVariant(1);
    };
    job.start(older);
    QTRY_VERIFY_WITH_TIMEOUT(begun->load(), kTimeoutMs);
    job.start([](JobContext& context) {
      context.reportProgress(0.5);
      return QVariant(2);
    });
    gate->open();
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, kTimeoutMs);
    QCOMPARE(succeeded.first().first().toInt(), 2);
    QCOMPARE(cancelled.size(), 0);  // a replaced job is silent
    QCOMPARE(progress.size(), 1);
    QCOMPARE(progress.first().first().toDouble(), 0.5);
    QVERIFY(!job.isRunning());
  }

  void progressAfterCancelIsDropped() {
    BackgroundJob job;
    QSignalSpy progress(&job, &BackgroundJob::progress);
    QSignalSpy reported(&job, &BackgroundJob::reported);
    QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
    auto gate = std::make_shared<Gate>();
    auto firstReported = std::make_shared<std::atomic<bool>>(false);
    job.start([gate, firstReported](JobContext& context) {
      context.reportProgress(0.1);
      context.report(QVariant(QStringLiteral("first")));
      firstReported->store(true);
      gate->wait();
      context.reportProgress(0.9);
      context.report(QVariant(QStringLiteral("second")));
      return QVariant();
    });
    QTRY_COMPARE_WITH_TIMEOUT(reported.size(), 1, kTimeoutMs);
    QCOMPARE(progress.size(), 1);
    QCOMPARE(reported.first().first().toString(), QStringLiteral("first"));
    job.cancel();
    gate->open();
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, kTimeoutMs);
    QCOMPARE(progress.size(), 1);
    QCOMPARE(reported.size(), 1);
  }

  void readerStopsThroughTheJobsToken() {
    // A CSV read in memory stops at its first check once the job is cancelled.
    QByteArray text = "t,x\n";
    for (int row = 0; row < 200000; ++row) text += QByteArray::number(row) + ',' + QByteArray::number(row % 7) + '\n';
    const std::string csv = text.toStdString();
    BackgroundJob job;
    QSignalSpy succeeded(&job, &BackgroundJob::succeeded);
    QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
    QSignalSpy failed(&job, &BackgroundJob::failed);
    auto gate = std::make_shared<Gate>();
    auto begun = std::make_shared<std::atomic<bool>>(false);
    auto stoppedByToken = std::make_shared<std::atomic<bool>>(false);
    job.start([csv, gate, begun, stoppedByToken](JobContext& context) {
      begun->store(true);
      gate->wait();
      aaren::CsvReadOptions options;
      options.set_token(context.token());
      try {
        return QVariant(aaren::parse_time_series_csv(csv, "long.csv", options).values.rows);
      } catch (const aaren::ReadCancelled&) {
        stoppedByToken->store(true);
        throw;
      }
    });
    QTRY_VERIFY_WITH_TIMEOUT(begun->load(), kTimeoutMs);
    job.cancel();
    gate->open();
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, kTimeoutMs);
    QVERIFY(stoppedByToken->load());
    QCOMPARE(succeeded.size(), 0);
    QCOMPARE(failed.size(), 0);
  }

  void eventLogReadReportsProgressAndStopsThroughTheToken() {
    QByteArray text = "time\n";
    for (int event = 0; event < 50000; ++event) text += QByteArray::number(event) + '\n';
    const std::string log = text.toStdString();
    BackgroundJob job;
    QSignalSpy succeeded(&job, &BackgroundJob::succeeded);
    QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
    QSignalSpy progress(&job, &BackgroundJob::progress);
    auto gate = std::make_shared<Gate>();
    auto begun = std::make_shared<std::atomic<bool>>(false);
    const auto readLog = [log, gate, begun](JobContext& context) {
      begun->store(true);
      gate->wait();
      aaren::EventLogOptions options;
      options.set_token(context.token());
      return QVariant(qlonglong(aaren::parse_event_log(log, "events.csv", options).events()));
    };

    job.start(readLog);
    gate->open();
    QTRY_COMPARE_WITH_TIMEOUT(succeeded.size(), 1, kTimeoutMs);
    QCOMPARE(succeeded.first().first().toLongLong(), 50000);
    QVERIFY(progress.size() > 1);
    QCOMPARE(progress.last().first().toDouble(), 1.0);

    // Cancelled while it waits to read: the read itself stops with ReadCancelled.
    auto secondGate = std::make_shared<Gate>();
    auto started = std::make_shared<std::atomic<bool>>(false);
    auto stoppedByToken = std::make_shared<std::atomic<bool>>(false);
    job.start([readLog, secondGate, started, stoppedByToken](JobContext& context) {
      started->store(true);
      secondGate->wait();
      try {
        return readLog(context);
      } catch (const aaren::ReadCancelled&) {
        stoppedByToken->store(true);
        throw;
      }
    });
    QTRY_VERIFY_WITH_TIMEOUT(started->load(), kTimeoutMs);
    job.cancel();
    secondGate->open();
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, kTimeoutMs);
    QVERIFY(stoppedByToken->load());
    QCOMPARE(succeeded.size(), 1);
  }

  void failureNamesTheLine() {
    BackgroundJob job;
    QSignalSpy failed(&job, &BackgroundJob::failed);
    job.start([](JobContext& context) {
      aaren::CsvReadOptions options;
      options.set_token(context.token());
      return QVariant(aaren::parse_time_series_csv("t,x\n1,2\n2,oops\n", "bad.csv", options).values.rows);
    });
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, kTimeoutMs);
    QCOMPARE(failed.first().at(1).toInt(), 3);
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("bad.csv, line 3")));
  }

  void shutDownReturnsWhileTheJobIsBusy() {
    auto gate = std::make_shared<Gate>();
    auto begun = std::make_shared<std::atomic<bool>>(false);
    BackgroundJob job;
    QSignalSpy finished(&job, &BackgroundJob::shutDownFinished);
    QSignalSpy succeeded(&job, &BackgroundJob::succeeded);
    QSignalSpy cancelled(&job, &BackgroundJob::cancelled);
    job.start(gatedWork(gate, begun, 3));
    QTRY_VERIFY_WITH_TIMEOUT(begun->load(), kTimeoutMs);
    job.shutDown();  // returns although the work still waits on the gate
    QVERIFY(job.isShutDown());
    QCoreApplication::processEvents();
    QCOMPARE(finished.size(), 0);
    job.start(gatedWork(gate, begun, 4));  // ignored after shutDown()
    gate->open();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, kTimeoutMs);
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(succeeded.size(), 0);
    QVERIFY(!job.isRunning());
  }

  void destructorDoesNotWaitForTheWork() {
    auto gate = std::make_shared<Gate>();
    auto begun = std::make_shared<std::atomic<bool>>(false);
    auto returned = std::make_shared<std::atomic<bool>>(false);
    {
      BackgroundJob job;
      job.start([gate, begun, returned](JobContext&) {
        begun->store(true);
        gate->wait();
        returned->store(true);
        return QVariant();
      });
      QTRY_VERIFY_WITH_TIMEOUT(begun->load(), kTimeoutMs);
    }  // were the destructor to wait, the test would hang here: the gate is still shut
    QVERIFY(!returned->load());
    gate->open();
    QTRY_VERIFY_WITH_TIMEOUT(returned->load(), kTimeoutMs);
  }
};

QTEST_MAIN(TestBackgroundJob)
#include "tst_background_job.moc"
