#pragma once
// The streaming benchmark (core/bench/stream_bench.hpp) as BackgroundJob work: every sample is
// reported as it is measured (JobContext::report with a bench::StreamSample) and the result is the
// bench::StreamBenchResult. Setting `stop` ends the stream early and keeps what was measured (a
// result, not a cancellation). Each run gets its own flag, so a Stop meant for one run can never end
// the next.
#include <atomic>
#include <memory>

#include "core/bench/stream_bench.hpp"
#include "core/bench/stream_time_estimate.hpp"
#include "ui/workers/background_job.hpp"

namespace aaren::ui {

// Running out of memory fails with a message that says which setting to lower.
JobWork streamBenchWork(const bench::StreamBenchOptions& options, std::shared_ptr<const std::atomic<bool>> stop);

// A short calibration of both models' step costs at `options`' size and device
// (bench::calibrate_stream_time); the result is a bench::StreamTimeModel. `stop` ends it early, so a
// run about to start is not slowed by it.
JobWork streamCalibrationWork(const bench::StreamBenchOptions& options, std::shared_ptr<const std::atomic<bool>> stop);

}  // namespace aaren::ui

Q_DECLARE_METATYPE(aaren::bench::StreamSample)
Q_DECLARE_METATYPE(aaren::bench::StreamBenchResult)
Q_DECLARE_METATYPE(aaren::bench::StreamTimeModel)
