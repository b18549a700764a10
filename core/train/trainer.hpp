#pragma once
// Mini-batch training of a forecasting model with AdamW, gradient clipping, warm-up and a
// constant or cosine learning rate, early stopping on the validation loss (best weights kept),
// progress reports, cancellation from another thread, and a clean stop on a non-finite loss.
// Deterministic for a seed: each batch is cut into a fixed number of shards, each with its own
// gradient buffer, summed in shard order, whatever the number of threads.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/model/forecast_model.hpp"
#include "core/train/adamw.hpp"
#include "core/train/window_set.hpp"
#include "core/util/worker_pool.hpp"

namespace aaren {

struct TrainSettings {
  int epochs = 10;
  int batch = 32;
  double lr = 1e-3;
  AdamWSettings adamw;
  LrSchedule schedule = LrSchedule::cosine;
  double warmup_fraction = 0.05;  // of all steps
  double clip_norm = 1.0;         // <= 0: no clipping
  int patience = 3;               // epochs without validation improvement before stopping; 0: never
  int threads = 0;                // 0: one per hardware thread
  long max_steps_per_epoch = 0;   // 0: every training window once per epoch
  unsigned seed = 1;
};

struct TrainProgress {
  int epoch = 0;  // 1-based
  int epochs = 0;
  long step = 0;  // within the epoch, 1-based
  long steps_per_epoch = 0;
  double train_loss = 0;        // mean over the epoch so far
  double val_loss = -1;         // at the end of an epoch; -1 before
  double samples_per_second = 0;
  double eta_seconds = 0;
  bool epoch_end = false;
};

struct EpochRecord {
  int epoch = 0;
  double train_loss = 0;
  double val_loss = 0;
  double seconds = 0;
};

enum class TrainStop { completed, early_stopped, cancelled, diverged };
std::string to_string(TrainStop stop);

struct TrainResult {
  std::vector<EpochRecord> epochs;
  int best_epoch = 0;  // 0: no epoch finished
  double best_val_loss = 0;
  TrainStop stop = TrainStop::completed;
  std::string message;  // why it stopped, in words
  long samples = 0;     // training windows processed
};

struct EvalMetrics {
  double mse = 0;
  double mae = 0;
  long windows = 0;
};

struct TrainCallbacks {
  std::function<void(const TrainProgress&)> progress;  // after every step and at every epoch's end
  // Each time validation improves, with the new best parameters (to keep them on disk as it goes).
  std::function<void(const std::vector<float>& params, const EpochRecord&)> on_best;
  const std::atomic<bool>* cancel = nullptr;  // checked before every step
};

class Trainer {
 public:
  // Trains `params` in place; they must be laid out for `config`.
  Trainer(const ModelConfig& config, std::vector<float>& params, const TrainSettings& settings);
  ~Trainer();

  // On return, params hold the best weights seen on validation (or the last finite ones).
  TrainResult train(const WindowSet& train_set, const WindowSet& val_set, const TrainCallbacks& callbacks = {});
  EvalMetrics evaluate(const WindowSet& set);

  const ParameterLayout& layout() const { return layout_; }

 private:
  struct Worker;
  static constexpr int kShards = 8;

  double train_step(const WindowSet& set, const std::vector<long>& order, long first, int count);

  ModelConfig config_;
  ParameterLayout layout_;
  std::vector<float>& params_;
  TrainSettings settings_;
  WorkerPool pool_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<AlignedVector<float>> shard_grads_;
  std::vector<double> shard_loss_, shard_abs_;
  AlignedVector<float> grads_;
};

}  // namespace aaren
