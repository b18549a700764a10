#pragma once
// `aaren bench train`: training-step throughput of the models as the look-back grows. Aaren's and
// the linear Transformer's cost per sample grows linearly in T; the Transformer's attention grows
// quadratically. On the CPU each row also gives the rate a step reaches (its operations counted by
// step_flops.hpp) beside this machine's SGEMM rate at the step's shapes (sgemm_rate.hpp).
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/forecast/forecast_run.hpp"
#include "core/util/step_profile.hpp"

namespace aaren::bench {

struct TrainBenchOptions {
  std::vector<int> seq_lens = {96, 512, 2048};
  std::vector<ModelKind> kinds{std::begin(kModelKinds), std::end(kModelKinds)};  // timed in this order at each T
  ModelConfig model;  // kind and seq_len are set per row
  int batch = 32;
  int steps = 3;      // timed steps per repeat
  int repeats = 3;
  int threads = 0;
  ForecastEngineFactory engine;  // where the steps run; empty: the CPU workers
  bool profile = false;          // one more, profiled run of the steps for each row (CPU only)
};

struct TrainBenchRow {
  ModelKind kind = ModelKind::aaren;
  int seq_len = 0;
  double samples_per_second = 0;  // median over repeats
  double seconds_per_step = 0;
  std::string device;        // "cpu", or the engine's device()
  double step_gflop = 0;     // the step's operations, in 1e9
  double gflops = 0;         // step_gflop / seconds_per_step
  double sgemm_gflops = 0;   // this machine's SGEMM rate at the step's shapes; 0 on a GPU engine
  double sgemm_share() const { return sgemm_gflops > 0 ? gflops / sgemm_gflops : 0; }
  // With profile: each part's CPU seconds per step (core/util/step_profile.hpp), and the workers'
  // whole time per step (their count times the profiled step's wall time), of which the parts are
  // shares; what they leave is the loss, the small layers, and the workers waiting for each other.
  std::array<double, profile::kParts> part_seconds{};
  double worker_seconds = 0;
};

std::vector<TrainBenchRow> run_train_bench(const TrainBenchOptions& options,
                                           const std::function<void(const TrainBenchRow&)>& progress = {});

}  // namespace aaren::bench
