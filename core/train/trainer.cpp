#include "core/train/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "core/util/step_profile.hpp"

namespace aaren {

namespace {

// "1 epoch", "3 epochs": the messages end up in a student's report.
std::string epochs_text(int epochs) { return std::to_string(epochs) + (epochs == 1 ? " epoch" : " epochs"); }

}  // namespace

std::string to_string(TrainStop stop) {
  switch (stop) {
    case TrainStop::completed: return "completed";
    case TrainStop::early_stopped: return "early_stopped";
    case TrainStop::cancelled: return "cancelled";
    case TrainStop::diverged: return "diverged";
  }
  return "unknown";
}

Trainer::Trainer(const ParameterLayout& layout, std::vector<float>& params, const TrainSettings& settings)
    : layout_(layout), params_(params), settings_(settings), pool_(settings.threads) {
  if (params_.size() != layout_.total())
    throw std::invalid_argument("the parameter buffer holds " + std::to_string(params_.size()) +
                                " values but the model's layout has " + std::to_string(layout_.total()));
  shard_grads_.assign(kShards, AlignedVector<float>(layout_.total(), 0.0f));
  shard_loss_.assign(kShards, 0.0);
  shard_terms_.assign(kShards, 0);
  grads_.assign(layout_.total(), 0.0f);
}

Trainer::Workers Trainer::make_workers(const TrainingTask& task) {
  if (task.parameter_count() != layout_.total())
    throw std::invalid_argument("the task's model has " + std::to_string(task.parameter_count()) +
                                " parameters but the trainer's buffer holds " + std::to_string(layout_.total()));
  Workers workers;
  for (int w = 0; w < pool_.size(); ++w) workers.push_back(task.make_worker());
  return workers;
}

double Trainer::train_step(Workers& workers, const std::vector<long>& order, long first, int count) {
  const float grad_weight = 1.0f / float(count);
  pool_.run(kShards, [&](int shard, int worker) {
    TaskWorker& w = *workers[std::size_t(worker)];
    AlignedVector<float>& g = shard_grads_[std::size_t(shard)];
    {
      const profile::Scope scope(profile::Part::copies);
      std::fill(g.begin(), g.end(), 0.0f);
    }
    double objective = 0;
    for (long i = first + long(shard) * count / kShards; i < first + long(shard + 1) * count / kShards; ++i) {
      const LossTerms example = w.loss(order[std::size_t(i)], params_.data(), g.data(), grad_weight);
      objective += example.sum / double(example.terms);
    }
    shard_loss_[std::size_t(shard)] = objective;
  });
  const profile::Scope scope(profile::Part::copies);  // the shards' gradients summed
  std::copy(shard_grads_[0].begin(), shard_grads_[0].end(), grads_.begin());
  for (int s = 1; s < kShards; ++s)
    for (std::size_t i = 0; i < grads_.size(); ++i) grads_[i] += shard_grads_[std::size_t(s)][i];
  return std::accumulate(shard_loss_.begin(), shard_loss_.end(), 0.0) / double(count);
}

StepReport Trainer::cpu_step(Workers& workers, AdamW& optimizer, const std::vector<long>& order, long first,
                             int count, double lr) {
  StepReport report;
  report.loss = train_step(workers, order, first, count);
  const profile::Scope scope(profile::Part::optimizer);  // the norm, the clipping and AdamW
  report.grad_norm = std::sqrt(std::inner_product(grads_.begin(), grads_.end(), grads_.begin(), 0.0));
  if (!std::isfinite(report.loss) || !std::isfinite(report.grad_norm)) return report;
  clip_grad_norm(grads_.data(), grads_.size(), settings_.clip_norm);
  optimizer.step(params_.data(), grads_.data(), lr);
  return report;
}

double Trainer::loss_over(Workers& workers, long examples) {
  pool_.run(kShards, [&](int shard, int worker) {
    TaskWorker& w = *workers[std::size_t(worker)];
    double sum = 0;
    long terms = 0;
    for (long i = long(shard) * examples / kShards; i < long(shard + 1) * examples / kShards; ++i) {
      const LossTerms example = w.loss(i, params_.data(), nullptr, 0.0f);
      sum += example.sum;
      terms += example.terms;
    }
    shard_loss_[std::size_t(shard)] = sum;
    shard_terms_[std::size_t(shard)] = terms;
  });
  return std::accumulate(shard_loss_.begin(), shard_loss_.end(), 0.0) /
         double(std::accumulate(shard_terms_.begin(), shard_terms_.end(), 0L));
}

double Trainer::mean_loss(const TrainingTask& task) {
  if (task.size() == 0) throw std::invalid_argument("there are no examples to measure the loss on");
  Workers workers = make_workers(task);
  return loss_over(workers, task.size());
}

std::vector<double> Trainer::metric_sums(const TrainingTask& task) {
  const std::size_t metrics = task.metric_names().size();
  const long examples = task.size();
  Workers workers = make_workers(task);
  std::vector<double> shard_sums(std::size_t(kShards) * metrics, 0.0);
  pool_.run(kShards, [&](int shard, int worker) {
    TaskWorker& w = *workers[std::size_t(worker)];
    double* sums = shard_sums.data() + std::size_t(shard) * metrics;
    for (long i = long(shard) * examples / kShards; i < long(shard + 1) * examples / kShards; ++i)
      w.add_metrics(i, params_.data(), sums);
  });
  std::vector<double> totals(metrics, 0.0);
  for (int s = 0; s < kShards; ++s)
    for (std::size_t m = 0; m < metrics; ++m) totals[m] += shard_sums[std::size_t(s) * metrics + m];
  return totals;
}

TrainResult Trainer::train(const TrainingTask& train_set, const TrainingTask& val_set,
                           const TrainCallbacks& callbacks) {
  using Clock = std::chrono::steady_clock;
  TrainResult result;
  if (train_set.size() == 0) throw std::invalid_argument("the training part has no windows");
  if (val_set.size() == 0) throw std::invalid_argument("the validation part has no windows");
  const int batch = std::max(1, settings_.batch);
  long steps_per_epoch = (train_set.size() + batch - 1) / batch;
  if (settings_.max_steps_per_epoch > 0) steps_per_epoch = std::min(steps_per_epoch, settings_.max_steps_per_epoch);
  const long total_steps = steps_per_epoch * settings_.epochs;
  const long warmup = long(settings_.warmup_fraction * double(total_steps));
  // With an engine, the CPU keeps no workers and no optimizer state: the engine holds both, and
  // params_ is brought back from it only for the best and the final weights.
  Workers train_workers, val_workers;
  std::optional<AdamW> optimizer;
  if (engine_) {
    engine_->set_params(params_.data());
  } else {
    train_workers = make_workers(train_set);
    val_workers = make_workers(val_set);
    optimizer.emplace(layout_, settings_.adamw);
  }
  std::vector<float> best = params_;
  std::vector<long> order(std::size_t(train_set.size()));
  const auto step_on = [&](long first, int count, double lr) {
    return engine_ ? engine_->step(order.data() + first, count, lr)
                   : cpu_step(train_workers, *optimizer, order, first, count, lr);
  };
  const auto validation_loss = [&] {
    return engine_ ? engine_->validation_loss() : loss_over(val_workers, val_set.size());
  };
  std::mt19937 rng(settings_.seed);
  const auto start = Clock::now();
  long steps_done = 0, samples_done = 0;
  int since_best = 0;
  result.best_val_loss = std::numeric_limits<double>::infinity();

  const auto score_of = [](double score) { return std::isfinite(score) ? score : -std::numeric_limits<double>::infinity(); };
  const auto improves = [&](const EpochRecord& record) {
    if (!callbacks.validation_score) return record.val_loss < result.best_val_loss;
    if (result.best_epoch == 0) return true;
    const double score = score_of(record.val_score), best_score = score_of(result.best_val_score);
    return score > best_score || (score == best_score && record.val_loss < result.best_val_loss);
  };
  const auto finish = [&](TrainStop stop, std::string message) {
    result.stop = stop;
    result.message = std::move(message);
    result.samples = samples_done;
    if (result.best_epoch > 0) params_ = best;
    else if (engine_) engine_->get_params(params_.data());
    return result;
  };

  for (int epoch = 1; epoch <= settings_.epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    std::iota(order.begin(), order.end(), 0L);
    std::shuffle(order.begin(), order.end(), rng);
    double loss_sum = 0;
    TrainProgress progress;
    progress.epoch = epoch;
    progress.epochs = settings_.epochs;
    progress.steps_per_epoch = steps_per_epoch;
    for (long step = 0; step < steps_per_epoch; ++step) {
      if (callbacks.cancel && callbacks.cancel->load())
        return finish(TrainStop::cancelled, "stopped at epoch " + std::to_string(epoch) + ", step " +
                                                std::to_string(step + 1) + " on request");
      const long first = step * batch;
      const int count = int(std::min<long>(batch, train_set.size() - first));
      const StepReport report =
          step_on(first, count, learning_rate(settings_.schedule, settings_.lr, steps_done, warmup, total_steps));
      const double loss = report.loss;
      if (!std::isfinite(loss) || !std::isfinite(report.grad_norm))
        return finish(TrainStop::diverged,
                      "the training loss became " + std::string(std::isfinite(loss) ? "finite but the gradient " : "") +
                          "not finite at epoch " + std::to_string(epoch) + ", step " + std::to_string(step + 1) +
                          (result.best_epoch > 0 ? "; the best epoch's weights were kept"
                                                 : "; the last finite weights were kept") +
                          " (try a lower learning rate)");
      ++steps_done;
      samples_done += count;
      loss_sum += loss;
      if (callbacks.progress) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        progress.step = step + 1;
        progress.train_loss = loss_sum / double(step + 1);
        progress.samples_per_second = double(samples_done) / std::max(elapsed, 1e-9);
        progress.eta_seconds = elapsed / double(steps_done) * double(total_steps - steps_done);
        callbacks.progress(progress);
      }
    }
    EpochRecord record;
    record.epoch = epoch;
    record.train_loss = loss_sum / double(steps_per_epoch);
    record.val_loss = validation_loss();
    if (callbacks.validation_score) {
      if (engine_) engine_->get_params(params_.data());
      record.val_score = callbacks.validation_score();
    }
    record.seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
    result.epochs.push_back(record);
    if (callbacks.progress) {
      progress.val_loss = record.val_loss;
      progress.val_score = record.val_score;
      if (callbacks.validation_score) progress.val_score_name = callbacks.validation_score_name;
      progress.epoch_end = true;
      callbacks.progress(progress);
    }
    if (!std::isfinite(record.val_loss))
      return finish(TrainStop::diverged, "the validation loss became not finite at epoch " + std::to_string(epoch) +
                                             "; the best earlier weights were kept");
    if (improves(record)) {
      result.best_val_loss = record.val_loss;
      result.best_val_score = record.val_score;
      result.best_epoch = epoch;
      if (engine_) engine_->get_params(best.data());
      else best = params_;
      since_best = 0;
      if (callbacks.on_best) callbacks.on_best(best, record);
    } else if (settings_.patience > 0 && ++since_best >= settings_.patience) {
      return finish(TrainStop::early_stopped, (callbacks.validation_score ? callbacks.validation_score_name
                                                                           : std::string("validation loss")) +
                                                  " did not improve for " + epochs_text(settings_.patience) +
                                                  "; best epoch " + std::to_string(result.best_epoch));
    }
  }
  return finish(TrainStop::completed,
                "trained " + epochs_text(settings_.epochs) + "; best epoch " + std::to_string(result.best_epoch));
}

}  // namespace aaren
