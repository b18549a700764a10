#include "core/bench/train_bench.hpp"

#include <random>

#include "core/bench/sgemm_rate.hpp"
#include "core/bench/step_flops.hpp"
#include "core/bench/timing.hpp"
#include "core/forecast/forecast_task.hpp"
#include "core/train/trainer.hpp"

namespace aaren::bench {

namespace {

// Random windows: throughput does not depend on the values.
class RandomWindows : public WindowSet {
 public:
  RandomWindows(long count, int seq_len, int horizon, int channels)
      : count_(count), x_size_(std::size_t(seq_len) * std::size_t(channels)),
        y_size_(std::size_t(horizon) * std::size_t(channels)) {
    std::mt19937 rng(1);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    data_.resize(x_size_ + y_size_);
    for (float& v : data_) v = normal(rng);
  }
  long size() const override { return count_; }
  void copy(long, float* x, float* y) const override {
    std::copy(data_.begin(), data_.begin() + long(x_size_), x);
    std::copy(data_.begin() + long(x_size_), data_.end(), y);
  }

 private:
  long count_;
  std::size_t x_size_, y_size_;
  std::vector<float> data_;
};

}  // namespace

std::vector<TrainBenchRow> run_train_bench(const TrainBenchOptions& options,
                                           const std::function<void(const TrainBenchRow&)>& progress) {
  std::vector<TrainBenchRow> rows;
  for (const int seq_len : options.seq_lens) {
    for (const ModelKind kind : options.kinds) {
      ModelConfig config = options.model;
      config.kind = kind;
      config.seq_len = seq_len;
      config.validate();
      std::vector<float> params;
      std::mt19937 rng(1);
      const ParameterLayout layout(config);
      init_parameters(params, layout, rng);
      TrainSettings settings;
      settings.epochs = 1;
      settings.batch = options.batch;
      settings.threads = options.threads;
      settings.patience = 0;
      settings.max_steps_per_epoch = options.steps;
      Trainer trainer(layout, params, settings);
      const RandomWindows train_windows(long(options.batch) * options.steps, seq_len, config.horizon, config.channels);
      const RandomWindows val_windows(1, seq_len, config.horizon, config.channels);
      const ForecastTask train(config, train_windows), val(config, val_windows);
      const std::unique_ptr<StepEngine> engine =
          options.engine ? options.engine(config, settings, train_windows, val_windows) : nullptr;
      trainer.use_engine(engine.get());
      std::vector<double> step_seconds;
      for (int r = 0; r <= options.repeats; ++r) {  // the first run warms up and is not counted
        const auto start = std::chrono::steady_clock::now();
        trainer.train(train, val);
        if (r > 0) step_seconds.push_back(seconds_since(start) / options.steps);
      }
      TrainBenchRow row;
      row.kind = kind;
      row.seq_len = seq_len;
      row.device = engine ? engine->device() : "cpu";
      row.seconds_per_step = median(step_seconds);
      row.samples_per_second = double(options.batch) / row.seconds_per_step;
      row.step_gflop = training_step_flops(config, options.batch).total() / 1e9;
      row.gflops = row.step_gflop / row.seconds_per_step;
      if (!engine)
        row.sgemm_gflops = sgemm_gflops(training_gemm_shapes(config, options.batch), options.threads, options.repeats);
      if (options.profile && !engine) {
        // Apart from the timed runs, which the clock reads would slow.
        profile::reset();
        profile::enable(true);
        const auto start = std::chrono::steady_clock::now();
        trainer.train(train, val);
        const double step_wall = seconds_since(start) / options.steps;
        profile::enable(false);
        const std::array<double, profile::kParts> parts = profile::seconds();
        for (int i = 0; i < profile::kParts; ++i)
          row.part_seconds[std::size_t(i)] = parts[std::size_t(i)] / options.steps;
        row.worker_seconds = step_wall * trainer.workers();
      }
      rows.push_back(row);
      if (progress) progress(row);
    }
  }
  return rows;
}

}  // namespace aaren::bench
