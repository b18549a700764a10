#include "ui/workers/stream_worker.hpp"

#include <QLocale>
#include <QMetaType>
#include <exception>
#include <new>
#include <stdexcept>

namespace aaren::ui {

namespace {

QString outOfMemory(const bench::StreamBenchOptions& options) {
  const double cacheBytes =
      2.0 * options.model.layers * options.model.d_model * double(sizeof(float)) * double(options.tokens);
  return QObject::tr("there is not enough memory for this run: the Transformer's KV cache alone needs %1 at N = %2. "
                     "Choose fewer tokens or a smaller model.")
      .arg(QLocale().formattedDataSize(qint64(cacheBytes), 2, QLocale::DataSizeSIFormat),
           QLocale().toString(qlonglong(options.tokens)));
}

}  // namespace

StreamWorker::StreamWorker(QObject* parent) : QObject(parent) {
  // Both cross the thread boundary in queued signals.
  qRegisterMetaType<bench::StreamSample>();
  qRegisterMetaType<bench::StreamBenchResult>();
}

void StreamWorker::run(const bench::StreamBenchOptions& options, std::shared_ptr<const std::atomic<bool>> stop) {
  try {
    const bench::StreamBenchResult result = bench::run_stream_bench(
        options, [this](const bench::StreamSample& sample) { emit sampleMeasured(sample); }, stop.get());
    emit finished(result);
  } catch (const std::bad_alloc&) {
    emit failed(outOfMemory(options));
  } catch (const std::length_error&) {
    emit failed(outOfMemory(options));
  } catch (const std::exception& error) {
    emit failed(QString::fromUtf8(error.what()));
  }
}

}  // namespace aaren::ui
