#pragma once
// Runs the streaming benchmark (core/bench/stream_bench.hpp) off the GUI thread: the object lives
// on a QThread, reports every sample as it is measured, and ends early when its stop flag is set.
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "core/bench/stream_bench.hpp"

namespace aaren::ui {

class StreamWorker : public QObject {
  Q_OBJECT

 public:
  explicit StreamWorker(QObject* parent = nullptr);

  // Runs in the worker's thread until the stream ends or `stop` becomes true; then emits finished()
  // with what was measured, or failed() with a message for the user. Each run gets its own flag,
  // so a Stop meant for one run can never end the next.
  void run(const aaren::bench::StreamBenchOptions& options, std::shared_ptr<const std::atomic<bool>> stop);

 signals:
  void sampleMeasured(const aaren::bench::StreamSample& sample);
  void finished(const aaren::bench::StreamBenchResult& result);
  void failed(const QString& message);
};

}  // namespace aaren::ui
