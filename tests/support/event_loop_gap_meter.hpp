#pragma once
// How responsive the GUI thread stays: a 10 ms timer on the thread that owns the meter notes the
// time between consecutive timeouts. While the event loop is served, that gap stays near 10 ms;
// whatever blocks the thread (work done on it, a wait on another thread) shows as one long gap.
// A bound on this gap is a bound on the thread's responsiveness, not on the speed of any work.
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>

class EventLoopGapMeter {
 public:
  static constexpr int kIntervalMs = 10;

  EventLoopGapMeter() {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(kIntervalMs);
    QObject::connect(&timer_, &QTimer::timeout, &timer_, [this] { note(); });
  }

  // Starts measuring from now: the first gap runs from this call to the first timeout.
  void start() {
    largest_ms_ = 0;
    timeouts_ = 0;
    clock_.start();
    timer_.start();
  }

  // Stops, counting the time since the last timeout as a gap too, so a block at the end is seen.
  void stop() {
    if (!timer_.isActive()) return;
    timer_.stop();
    largest_ms_ = std::max(largest_ms_, clock_.elapsed());
  }

  qint64 largestGapMs() const { return largest_ms_; }
  int timeouts() const { return timeouts_; }

 private:
  void note() {
    largest_ms_ = std::max(largest_ms_, clock_.restart());
    ++timeouts_;
  }

  QTimer timer_;
  QElapsedTimer clock_;
  qint64 largest_ms_ = 0;
  int timeouts_ = 0;
};
