#pragma once
// `aaren bench stream` and the Efficiency page: N tokens streamed one at a time through an Aaren
// model, a KV-cached Transformer and a linear Transformer of the same size (the paper's Figure 5,
// with the third RNN inside attention beside its two), recording per-token
// latency, cumulative time, the state each keeps, the bytes each step reads, and the process's
// resident memory. A step's bound is the time to read those bytes: the run measures one thread's
// read bandwidth (core/bench/memory_bandwidth.hpp) and reports each model's rate against it.
#include <atomic>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"

namespace aaren::bench {

// The models a stream can time, one slot each in the arrays below, indexed as kModelKinds:
// 0 Aaren, 1 Transformer, 2 linear Transformer (stream_model_index).
inline constexpr int kStreamModels = int(std::size(kModelKinds));
inline int stream_model_index(ModelKind kind) { return int(kind); }

// One model run as an RNN, a token at a time, wherever it runs: on the CPU a ForecastStream, on a
// device what StreamBenchOptions::stepper makes.
class TokenStepper {
 public:
  virtual ~TokenStepper() = default;
  virtual void reset() = 0;
  // Takes one input row (C) and returns once that token's hidden state is ready for the caller, so
  // the time a step takes includes all of its work, on whatever device.
  virtual void step(const float* x) = 0;
  // Bytes of the state the stream keeps: Aaren's (m, u, w), the KV cache in use, or the linear
  // Transformer's (S, z).
  virtual std::size_t state_bytes() const = 0;
};

// Makes a stepper for a model of `config` with host parameters `params` (which outlive it) for up
// to `capacity` tokens; throws when its device cannot be used.
using TokenStepperFactory =
    std::function<std::unique_ptr<TokenStepper>(const ModelConfig& config, const float* params, long capacity)>;

// The state a stream of `config` keeps after `tokens` tokens, as ForecastStream::state_bytes counts
// it: Aaren's (m, u, w) of every layer, the Transformer's keys and values of every token, or the
// linear Transformer's (S, z) of every layer and head.
std::size_t stream_state_bytes(const ModelConfig& config, long tokens);

// The bytes one step reads once the stream holds `tokens` tokens (the new one included): every
// parameter the step uses (the embedding, and per block the LayerNorms, the mixer's projections
// and the FFN; Aaren's query is computed once, so not its Wq) and the state: Aaren's (m, u, w), or
// every cached key and value. The time to read them is the step's bound.
std::size_t stream_step_bytes(const ModelConfig& config, long tokens);

// A stepper over a device's stream class: one made from (config, params, capacity) with reset(),
// step(x), hidden(out) (a copy to the host, which waits for the step) and tokens(), such as
// gpu::DeviceForecastStream.
template <class Stream>
class DeviceStreamStepper : public TokenStepper {
 public:
  DeviceStreamStepper(const ModelConfig& config, const float* params, long capacity)
      : config_(config), stream_(config, params, capacity), hidden_(std::size_t(config.d_model)) {}
  void reset() override { stream_.reset(); }
  void step(const float* x) override {
    stream_.step(x);
    stream_.hidden(hidden_.data());
  }
  std::size_t state_bytes() const override { return stream_state_bytes(config_, stream_.tokens()); }

 private:
  ModelConfig config_;
  Stream stream_;
  std::vector<float> hidden_;  // (d_model)
};

template <class Stream>
TokenStepperFactory device_stream_stepper() {
  return [](const ModelConfig& config, const float* params, long capacity) -> std::unique_ptr<TokenStepper> {
    return std::make_unique<DeviceStreamStepper<Stream>>(config, params, capacity);
  };
}

struct StreamBenchOptions {
  long tokens = 32768;
  ModelConfig model;   // d_model, heads, layers, d_ff; kind is set per model, channels 1
  // The models streamed, each step of a sample in this order; at least one. A device stepper takes
  // only the models the device runs: the others are left out with a note (StreamBenchResult).
  std::vector<ModelKind> kinds{std::begin(kModelKinds), std::end(kModelKinds)};
  int repeats = 3;     // the whole stream is repeated; each sample keeps the median
  int samples = 256;   // sampled token counts (log-spaced at first, then even)
  long warmup = 256;   // tokens streamed and discarded before timing
  bool parallel = true;  // also time the parallel (training-style) forward at N where memory allows
  double parallel_memory_limit_bytes = 4e9;
  unsigned seed = 1;
  // One thread's read bandwidth (bytes per second), the bound each step is reported against.
  // Unset: measured at the start of a run on the CPU when probe_bandwidth is on (a caller that
  // printed it already passes it in).
  std::optional<double> read_bandwidth;
  bool probe_bandwidth = true;
  // Where the models stream; empty: the CPU. The parallel forward is timed on the CPU only, so
  // it is skipped (with a note) for another device.
  TokenStepperFactory stepper;
};

// One sampled token count. The times are robust to a busy machine (core/bench/stream_summary.hpp):
// each step's typical time, the median over the passes; the cumulative time is the sum of exactly
// those per-token times, so the two agree.
struct StreamSample {
  long tokens = 0;  // tokens seen (1-based)
  // per model, indexed by stream_model_index; 0 for a model not streamed
  double latency_seconds[kStreamModels] = {};     // the step that took in token `tokens` (median of a short window)
  double cumulative_seconds[kStreamModels] = {};  // all steps up to and including it: the sum of their latencies
  double latency_low_seconds[kStreamModels] = {};      // quartiles of the raw steps around it, every pass
  double latency_high_seconds[kStreamModels] = {};
  double cumulative_low_seconds[kStreamModels] = {};   // the fastest and the slowest pass
  double cumulative_high_seconds[kStreamModels] = {};
  double wall_seconds[kStreamModels] = {};             // the raw steps summed, interruptions included (median pass)
  int passes = 1;                              // passes that reached it
  double state_bytes[kStreamModels] = {};
  double bytes_read[kStreamModels] = {};          // what the step at `tokens` reads (stream_step_bytes)
  double resident_bytes[kStreamModels] = {};
};

struct GrowthFit {
  double time_exponent = 0;         // slope of log cumulative time against log N, upper half of N
  double latency_exponent = 0;      // slope of log per-token latency against log N, upper half of N
  double memory_bytes_per_token = 0;  // least-squares slope of state bytes against N
  // The time exponent of each pass fitted alone: its range (both time_exponent for one pass).
  double time_exponent_low = 0;
  double time_exponent_high = 0;
  long fit_from_tokens = 0;  // the samples fitted: upper half of N, passes in agreement
  long fit_to_tokens = 0;
  int fit_points = 0;
  int passes = 1;            // passes fitted alone
};

struct StreamBenchResult {
  std::vector<StreamSample> samples;
  std::vector<ModelKind> kinds;           // the models streamed, as StreamBenchOptions::kinds less those left out
  std::string left_out_note;              // the models left out and why (a device that cannot run them)
  GrowthFit fit[kStreamModels];
  double parallel_seconds[kStreamModels] = {-1, -1, -1};  // parallel forward at N; -1 when skipped
  std::string parallel_note;              // why it was skipped, if it was
  bool stopped_early = false;
  double read_bandwidth = 0;              // bytes per second of one thread's read; 0: not measured
};

// A model's step at the largest N measured against the memory's read bandwidth.
struct StepBound {
  double bytes_read = 0;             // per step
  double bytes_per_second = 0;       // bytes_read / per-token latency
  double fraction_of_bandwidth = 0;  // of result.read_bandwidth; 0 when it was not measured
};
StepBound step_bound(const StreamBenchResult& result, int model);

// The models a run of `options` streams: its kinds, less those a device stepper cannot run.
std::vector<ModelKind> streamed_kinds(const StreamBenchOptions& options);
// Whether the run streamed this model.
bool streamed(const StreamBenchResult& result, ModelKind kind);

// Least squares slope of y against x.
double fitted_slope(const std::vector<double>& x, const std::vector<double>& y);
// The fits of DESIGN: exponents from the upper half of the token counts, without the passes'
// range (core/bench/stream_summary.hpp fits with it).
GrowthFit fit_growth(const std::vector<StreamSample>& samples, int model);

// Streams the models; throws std::invalid_argument when none is left to stream (none asked for, or
// a device that runs none of them). `progress` gets each sample as soon as every model has reached it (for
// live charts); `stop` ends the run early and keeps what was measured.
StreamBenchResult run_stream_bench(const StreamBenchOptions& options,
                                   const std::function<void(const StreamSample&)>& progress = {},
                                   const std::atomic<bool>* stop = nullptr);

// One row per sample: tokens, then Aaren's and the Transformer's latency, cumulative time, state
// bytes, resident bytes and bytes read per step (0 for one not streamed), then the same five of the
// linear Transformer where it was streamed (its columns at the end, so a file's first columns mean
// what they meant before it).
std::string stream_csv(const StreamBenchResult& result);

}  // namespace aaren::bench
