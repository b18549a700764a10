#pragma once
// `aaren bench stream` and the Efficiency page: N tokens streamed one at a time through an Aaren
// model and a KV-cached Transformer of the same size (the paper's Figure 5), recording per-token
// latency, cumulative time, the state each keeps, and the process's resident memory.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"

namespace aaren::bench {

struct StreamBenchOptions {
  long tokens = 32768;
  ModelConfig model;   // d_model, heads, layers, d_ff; kind is set per model, channels 1
  int repeats = 3;     // the whole stream is repeated; each sample keeps the median
  int samples = 256;   // sampled token counts (log-spaced at first, then even)
  long warmup = 256;   // tokens streamed and discarded before timing
  bool parallel = true;  // also time the parallel (training-style) forward at N where memory allows
  double parallel_memory_limit_bytes = 4e9;
  unsigned seed = 1;
};

struct StreamSample {
  long tokens = 0;  // tokens seen (1-based)
  // per model: 0 = Aaren, 1 = Transformer
  double latency_seconds[2] = {0, 0};     // the step that took in token `tokens` (median of a short window)
  double cumulative_seconds[2] = {0, 0};  // all steps up to and including it
  double state_bytes[2] = {0, 0};
  double resident_bytes[2] = {0, 0};
};

struct GrowthFit {
  double time_exponent = 0;         // slope of log cumulative time against log N, upper half of N
  double memory_bytes_per_token = 0;  // least-squares slope of state bytes against N
};

struct StreamBenchResult {
  std::vector<StreamSample> samples;
  GrowthFit fit[2];
  double parallel_seconds[2] = {-1, -1};  // parallel forward at N; -1 when skipped
  std::string parallel_note;              // why it was skipped, if it was
  bool stopped_early = false;
};

// Least squares slope of y against x.
double fitted_slope(const std::vector<double>& x, const std::vector<double>& y);
// The fits of DESIGN: exponents from the upper half of the token counts.
GrowthFit fit_growth(const std::vector<StreamSample>& samples, int model);

// Streams both models. `progress` gets each sample as soon as both models have reached it (for
// live charts); `stop` ends the run early and keeps what was measured.
StreamBenchResult run_stream_bench(const StreamBenchOptions& options,
                                   const std::function<void(const StreamSample&)>& progress = {},
                                   const std::atomic<bool>* stop = nullptr);

std::string stream_csv(const StreamBenchResult& result);  // one row per sample, both models

}  // namespace aaren::bench
