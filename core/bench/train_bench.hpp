#pragma once
// `aaren bench train`: training-step throughput of the models as the look-back grows. Aaren's and
// the linear Transformer's cost per sample grows linearly in T; the Transformer's attention grows
// quadratically.
#include <functional>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/forecast/forecast_run.hpp"

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
};

struct TrainBenchRow {
  ModelKind kind = ModelKind::aaren;
  int seq_len = 0;
  double samples_per_second = 0;  // median over repeats
  double seconds_per_step = 0;
  std::string device;  // "cpu", or the engine's device()
};

std::vector<TrainBenchRow> run_train_bench(const TrainBenchOptions& options,
                                           const std::function<void(const TrainBenchRow&)>& progress = {});

}  // namespace aaren::bench
