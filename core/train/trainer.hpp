#pragma once
// Mini-batch training of any TrainingTask's model with AdamW, gradient clipping, warm-up and a
// constant or cosine learning rate, early stopping on the validation loss (best weights kept),
// progress reports, cancellation from another thread, and a clean stop on a non-finite loss.
// Deterministic for a seed: each batch is cut into a fixed number of shards, each with its own
// gradient buffer, summed in shard order, whatever the number of threads; set-wide sums are
// reduced the same way.
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/model/parameter_layout.hpp"
#include "core/train/adamw.hpp"
#include "core/train/step_engine.hpp"
#include "core/train/training_task.hpp"
#include "core/util/aligned_vector.hpp"
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
  long max_steps_per_epoch = 0;   // 0: every training example once per epoch
  unsigned seed = 1;
};

struct TrainProgress {
  int epoch = 0;  // 1-based
  int epochs = 0;
  long step = 0;  // within the epoch, 1-based
  long steps_per_epoch = 0;
  double train_loss = 0;        // mean over the epoch so far
  double val_loss = -1;         // at the end of an epoch; -1 before
  double val_score = std::numeric_limits<double>::quiet_NaN();  // at an epoch's end, with a validation_score
  std::string val_score_name;                                   // TrainCallbacks::validation_score_name, with it
  double samples_per_second = 0;
  double eta_seconds = 0;
  bool epoch_end = false;
  // A classifier's cross-validation (core/classify/cross_validation.hpp): fold 1..folds trains on a
  // fold's complement, fold folds + 1 is the run's own training on every case; folds 0 otherwise.
  int fold = 0, folds = 0;
};

struct EpochRecord {
  int epoch = 0;
  double train_loss = 0;
  double val_loss = 0;
  double seconds = 0;
  double val_score = std::numeric_limits<double>::quiet_NaN();  // TrainCallbacks::validation_score's; NaN without
};

enum class TrainStop { completed, early_stopped, cancelled, diverged };
std::string to_string(TrainStop stop);

struct TrainResult {
  std::vector<EpochRecord> epochs;
  int best_epoch = 0;  // 0: no epoch finished
  double best_val_loss = 0;
  double best_val_score = std::numeric_limits<double>::quiet_NaN();  // with a validation_score
  TrainStop stop = TrainStop::completed;
  std::string message;  // why it stopped, in words
  long samples = 0;     // training examples processed
};

struct TrainCallbacks {
  std::function<void(const TrainProgress&)> progress;  // after every step and at every epoch's end
  // Each time validation improves, with the new best parameters (to keep them on disk as it goes).
  std::function<void(const std::vector<float>& params, const EpochRecord&)> on_best;
  const std::atomic<bool>* cancel = nullptr;  // checked before every step
  // Where set, a score to maximize (validation accuracy, say), measured after each epoch's
  // validation loss under that epoch's parameters: the best epoch is the one with the highest
  // score, the lower validation loss breaking ties, and patience counts epochs without a better one.
  // A score that is not finite counts as the lowest.
  std::function<double()> validation_score;
  std::string validation_score_name = "validation score";  // for the early-stopping message
};

class Trainer {
 public:
  // Trains `params` in place; they must be laid out by `layout` (AdamW decays its matrices only).
  Trainer(const ParameterLayout& layout, std::vector<float>& params, const TrainSettings& settings);
  int workers() const { return pool_.size(); }  // the threads a step runs on

  // Hands train()'s steps and validation losses to `engine` (not owned; it must outlive the
  // training), which holds the same training and validation examples under the same numbering;
  // nullptr: the CPU workers. The loop (order, schedule, early stopping, best weights) stays here,
  // and metric_sums and mean_loss always run on the CPU workers.
  void use_engine(StepEngine* engine) { engine_ = engine; }

  // On return, params hold the best weights seen on validation (or the last finite ones). The
  // validation loss is mean_loss(val_set), or the engine's validation_loss().
  TrainResult train(const TrainingTask& train_set, const TrainingTask& val_set, const TrainCallbacks& callbacks = {});
  // The task's metric sums over all its examples under the current parameters, in
  // metric_names() order.
  std::vector<double> metric_sums(const TrainingTask& task);
  // (sum of sums) / (sum of terms) over all the task's examples; throws for a task without any.
  double mean_loss(const TrainingTask& task);

 private:
  using Workers = std::vector<std::unique_ptr<TaskWorker>>;
  static constexpr int kShards = 8;

  Workers make_workers(const TrainingTask& task);
  double train_step(Workers& workers, const std::vector<long>& order, long first, int count);
  // One step on the CPU workers: the gradient, then, when loss and norm are finite, clipping and
  // the update, as an engine's step does.
  StepReport cpu_step(Workers& workers, AdamW& optimizer, const std::vector<long>& order, long first, int count,
                      double lr);
  double loss_over(Workers& workers, long examples);

  ParameterLayout layout_;
  std::vector<float>& params_;
  TrainSettings settings_;
  StepEngine* engine_ = nullptr;
  WorkerPool pool_;
  std::vector<AlignedVector<float>> shard_grads_;
  std::vector<double> shard_loss_;
  std::vector<long> shard_terms_;
  AlignedVector<float> grads_;
};

}  // namespace aaren
