#pragma once
// How long a streaming measurement (stream_bench.hpp) takes, before it starts and while it runs.
// A step of Aaren (or of the linear Transformer) costs the same at every token; a step of the Transformer reads its whole KV cache,
// so its cost grows linearly with the tokens cached and a pass over N tokens takes time quadratic in
// N (docs/DESIGN.md section 4). Each model's step is modelled as fixed + per_token × n, fitted to
// measured step times: a short calibration before the run, the run's own samples while it runs.
#include <atomic>
#include <vector>

#include "core/bench/stream_bench.hpp"

namespace aaren::bench {

// Seconds of the step that takes in token n (1-based): fixed_seconds + seconds_per_cached_token × n.
struct StepCost {
  double fixed_seconds = 0;
  double seconds_per_cached_token = 0;
  // The steps that take in tokens first..last (inclusive); 0 when last < first.
  double seconds_of_steps(long first, long last) const;
};

struct StreamTimeModel {
  StepCost cost[kStreamModels];  // indexed as StreamSample's (stream_model_index)
  // The bound of a Transformer step once its cache has left the CPU's caches: each cached token's
  // keys and values read at the machine's read bandwidth (memory_bandwidth.hpp). A calibration
  // over a few thousand tokens runs inside the caches, so its fitted slope alone predicts long runs
  // too short; the slope used is the larger of the two. 0 where unknown (a device stepper).
  double bound_seconds_per_cached_token = 0;
  // cost[k] with the Transformer's slope raised to the bound.
  StepCost effective_cost(int model) const;
};

// Least-squares line of step seconds against tokens cached, neither part below zero (noise must not
// predict a negative time). Throws std::invalid_argument when the lengths differ or nothing is given.
StepCost fit_step_cost(const std::vector<double>& tokens, const std::vector<double>& seconds);

// Every model's step cost from samples' per-token latencies (0 for one not streamed); throws when
// there are none.
StreamTimeModel fit_stream_time(const std::vector<StreamSample>& samples);

// The streaming time of a whole run of `options`: the warm-up, then `repeats` passes of N tokens
// through each of its models. The bandwidth probe and the parallel forward (about a second each) are not in it.
double estimated_run_seconds(const StreamBenchOptions& options, const StreamTimeModel& model);

// Samples of the first pass from which the run's own step costs replace the calibration's.
inline constexpr std::size_t kSamplesToRefit = 8;

// What is left, at its last sample, of a run whose first pass has measured `first_pass` (in order):
// the rest of the first pass and the passes still to repeat, each as long as the first. The step
// costs are refit from first_pass once it holds kSamplesToRefit samples; before that `calibrated`'s.
double remaining_run_seconds(const StreamBenchOptions& options, const StreamTimeModel& calibrated,
                             const std::vector<StreamSample>& first_pass);

// The bound above for a model of `config` on this machine: the bytes one more cached token adds to a
// step's read over a read bandwidth measured once per process (a short probe, a tenth of a second).
double memory_bound_seconds_per_cached_token(const ModelConfig& config);

// Tokens a calibration streams at most, and the seconds it aims to take.
inline constexpr long kCalibrationTokens = 2048;
inline constexpr double kCalibrationSeconds = 0.5;

// Measures the step costs of `options`' two models on this machine (and device) by streaming up to
// kCalibrationTokens tokens through each, stopping after about budget_seconds, without the bandwidth
// probe, repeats or the parallel forward. `stop` ends it early. Throws what run_stream_bench throws.
StreamTimeModel calibrate_stream_time(const StreamBenchOptions& options, double budget_seconds = kCalibrationSeconds,
                                      const std::atomic<bool>* stop = nullptr);

}  // namespace aaren::bench
