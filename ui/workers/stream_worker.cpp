#include "ui/workers/stream_worker.hpp"

#include <QLocale>
#include <QObject>
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

JobWork streamBenchWork(const bench::StreamBenchOptions& options, std::shared_ptr<const std::atomic<bool>> stop) {
  return [options, stop](JobContext& context) {
    try {
      return QVariant::fromValue(bench::run_stream_bench(
          options, [&context](const bench::StreamSample& sample) { context.report(QVariant::fromValue(sample)); },
          stop.get()));
    } catch (const std::bad_alloc&) {
      throw std::runtime_error(outOfMemory(options).toStdString());
    } catch (const std::length_error&) {
      throw std::runtime_error(outOfMemory(options).toStdString());
    }
  };
}

JobWork streamCalibrationWork(const bench::StreamBenchOptions& options, std::shared_ptr<const std::atomic<bool>> stop) {
  return [options, stop](JobContext&) {
    try {
      return QVariant::fromValue(bench::calibrate_stream_time(options, bench::kCalibrationSeconds, stop.get()));
    } catch (const std::bad_alloc&) {
      throw std::runtime_error(outOfMemory(options).toStdString());
    }
  };
}

}  // namespace aaren::ui
