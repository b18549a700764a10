#include "core/bench/stream_time_estimate.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/bench/memory_bandwidth.hpp"

namespace aaren::bench {

namespace {

constexpr long kCalibrationWarmup = 32;
constexpr int kCalibrationSamples = 32;

std::vector<double> latencies(const std::vector<StreamSample>& samples, int model) {
  std::vector<double> seconds;
  seconds.reserve(samples.size());
  for (const StreamSample& s : samples) seconds.push_back(s.latency_seconds[model]);
  return seconds;
}

}  // namespace

double StepCost::seconds_of_steps(long first, long last) const {
  if (last < first) return 0;
  const double count = double(last - first + 1);
  return fixed_seconds * count + seconds_per_cached_token * (double(first) + double(last)) * count / 2;
}

StepCost fit_step_cost(const std::vector<double>& tokens, const std::vector<double>& seconds) {
  if (tokens.empty() || tokens.size() != seconds.size())
    throw std::invalid_argument("a step cost is fitted to as many step times as token counts, and at least one");
  const double n = double(tokens.size());
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    mean_x += tokens[i] / n;
    mean_y += seconds[i] / n;
  }
  double sxx = 0, sxy = 0, sx2 = 0, sxy0 = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    sxx += (tokens[i] - mean_x) * (tokens[i] - mean_x);
    sxy += (tokens[i] - mean_x) * (seconds[i] - mean_y);
    sx2 += tokens[i] * tokens[i];
    sxy0 += tokens[i] * seconds[i];
  }
  StepCost cost;
  cost.seconds_per_cached_token = sxx > 0 ? sxy / sxx : 0;
  cost.fixed_seconds = mean_y - cost.seconds_per_cached_token * mean_x;
  if (cost.seconds_per_cached_token < 0) {
    cost = {std::max(0.0, mean_y), 0};
  } else if (cost.fixed_seconds < 0) {
    // The line through the origin that fits best.
    cost = {0, sx2 > 0 ? std::max(0.0, sxy0 / sx2) : 0};
  }
  return cost;
}

StreamTimeModel fit_stream_time(const std::vector<StreamSample>& samples) {
  std::vector<double> tokens;
  tokens.reserve(samples.size());
  for (const StreamSample& s : samples) tokens.push_back(double(s.tokens));
  StreamTimeModel model;
  for (int k = 0; k < kStreamModels; ++k) model.cost[k] = fit_step_cost(tokens, latencies(samples, k));
  return model;
}

StepCost StreamTimeModel::effective_cost(int model) const {
  StepCost c = cost[model];
  if (model == stream_model_index(ModelKind::transformer)) c.seconds_per_cached_token = std::max(c.seconds_per_cached_token, bound_seconds_per_cached_token);
  return c;
}

double memory_bound_seconds_per_cached_token(const ModelConfig& config) {
  // 64 MiB, twice the largest common last-level cache: enough to read from memory, quick to sum.
  static const double bandwidth = measure_read_bandwidth(std::size_t(64) << 20, 3).bytes_per_second;
  ModelConfig transformer = config;
  transformer.kind = ModelKind::transformer;
  const double bytes_per_token = double(stream_state_bytes(transformer, 2) - stream_state_bytes(transformer, 1));
  return bandwidth > 0 ? bytes_per_token / bandwidth : 0;
}

double estimated_run_seconds(const StreamBenchOptions& options, const StreamTimeModel& model) {
  double seconds = 0;
  for (const ModelKind kind : options.kinds) {
    const StepCost cost = model.effective_cost(stream_model_index(kind));
    seconds += cost.seconds_of_steps(1, options.warmup) + std::max(1, options.repeats) * cost.seconds_of_steps(1, options.tokens);
  }
  return seconds;
}

double remaining_run_seconds(const StreamBenchOptions& options, const StreamTimeModel& calibrated,
                             const std::vector<StreamSample>& first_pass) {
  StreamTimeModel model = first_pass.size() >= kSamplesToRefit ? fit_stream_time(first_pass) : calibrated;
  model.bound_seconds_per_cached_token = calibrated.bound_seconds_per_cached_token;
  const long reached = first_pass.empty() ? 0 : first_pass.back().tokens;
  double rest_of_pass = 0, measured = 0;
  for (const ModelKind kind : options.kinds) {
    const int k = stream_model_index(kind);
    rest_of_pass += model.effective_cost(k).seconds_of_steps(reached + 1, options.tokens);
    if (!first_pass.empty()) measured += first_pass.back().cumulative_seconds[k];
  }
  return rest_of_pass + (std::max(1, options.repeats) - 1) * (measured + rest_of_pass);
}

StreamTimeModel calibrate_stream_time(const StreamBenchOptions& options, double budget_seconds,
                                      const std::atomic<bool>* stop) {
  StreamBenchOptions probe = options;
  probe.tokens = std::clamp(options.tokens, 1L, kCalibrationTokens);
  probe.repeats = 1;
  probe.samples = kCalibrationSamples;
  probe.warmup = std::min(options.warmup, kCalibrationWarmup);
  probe.parallel = false;
  probe.probe_bandwidth = false;
  std::atomic<bool> enough{stop && stop->load()};
  const auto start = std::chrono::steady_clock::now();
  const StreamBenchResult result = run_stream_bench(
      probe,
      [&](const StreamSample&) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed > budget_seconds || (stop && stop->load())) enough = true;
      },
      &enough);
  if (result.samples.empty()) throw std::runtime_error("the calibration was stopped before it measured a step");
  StreamTimeModel model = fit_stream_time(result.samples);
  if (!options.stepper) model.bound_seconds_per_cached_token = memory_bound_seconds_per_cached_token(options.model);
  return model;
}

}  // namespace aaren::bench
