#include "core/events/event_run.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "core/data/label_numbers.hpp"
#include "core/data/scaler.hpp"
#include "core/events/event_baselines.hpp"
#include "core/events/event_features.hpp"
#include "core/events/event_heads.hpp"
#include "core/events/event_memory_estimate.hpp"
#include "core/events/event_stream.hpp"
#include "core/events/event_task.hpp"
#include "core/events/event_windows.hpp"
#include "core/model/parameter_init.hpp"
#include "core/train/run_steps.hpp"
#include "core/train/train_with_checkpoints.hpp"

namespace aaren {

namespace {

// The feature's scaling over the training part (core/data/scaler): one channel.
StandardScaler fit_feature_scaling(std::span<const EventSequence> train) {
  std::vector<std::size_t> constant;  // standardized to 0
  return fit_standard_scaler(
      1,
      [&](const auto& visit) {
        for (const EventSequence& sequence : train)
          for (double f : sequence.features) visit(0, f);
      },
      constant);
}

void standardize_features(EventSplit& split, const StandardScaler& scaling) {
  for (auto* part : {&split.train, &split.validation, &split.test})
    for (EventSequence& sequence : *part)
      for (double& f : sequence.features) f = scaling.scaled(f, 0);
}

// The run's mark numbers for the labels of a log read again (it may number them otherwise).
void renumber_marks(EventLog& log, const std::vector<std::string>& run_names) {
  const RunLabelNumbers numbers(log.mark_names, run_names);
  for (EventSequence& sequence : log.sequences)
    for (int& mark : sequence.marks) {
      if (numbers.of(mark) < 0)
        throw std::runtime_error(log.source + ", column '" + log.columns.mark + "': mark '" +
                                 log.mark_names[std::size_t(mark)] + "'" +
                                 (sequence.id.empty() ? "" : " (sequence '" + sequence.id + "')") +
                                 " is not one the run was trained on (" + numbers.known() + ")");
      mark = numbers.of(mark);
    }
  log.mark_names = run_names;
}

EventDataPreparation preparation_of(const EventLog& log, const EventRunRequest& request, const EventSplit& split) {
  EventDataPreparation d;
  d.data_file = request.data_path;
  d.time_column = log.columns.time;
  d.time_is_date = log.columns.time_is_date;
  d.date_unit = request.log.unit;
  d.decimal_mark = log.decimal_mark;
  d.time_unit = log.time_unit;
  d.sequence_column = log.columns.sequence;
  d.mark_column = log.columns.mark;
  d.mark_use = log.columns.mark.empty() ? MarkUse::none : log.columns.mark_use;
  d.mark_names = log.mark_names;
  d.split = request.split;
  d.split_method = split.method;
  return d;
}

// Metrics not measured yet (NaN is left out of metrics.json) over a part of `events` scored events.
EventEvalMetrics not_measured(long events) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  return {nan, nan, nan, nan, nan, events};
}

NextEventDistribution distribution_of(const EventStream<float>& stream, const EventModelConfig& c) {
  const std::size_t k = std::size_t(c.mixture_components), m = std::size_t(c.marks);
  NextEventDistribution next;
  next.last_time = stream.last_time();
  next.time_scale = c.time_scale;
  next.weights.assign(stream.mixture_weights(), stream.mixture_weights() + k);
  next.mu.assign(stream.mixture_mu(), stream.mixture_mu() + k);
  next.sigma.assign(stream.mixture_sigma(), stream.mixture_sigma() + k);
  next.mark_probabilities.assign(stream.mark_probabilities(), stream.mark_probabilities() + m);
  next.mean_next_time = stream.mean_next_time();
  return next;
}

// -log p(gap / s) as event_loss scores it (zero gaps at kMinScaledGap), in units of s.
double scaled_time_nll(const NextEventDistribution& next, double gap) {
  const double y = scaled_log_gap(gap, next.time_scale);
  return -mixture_log_density(next.weights.data(), next.mu.data(), next.sigma.data(), int(next.weights.size()), y) + y;
}

}  // namespace

EventRunOutcome train_event_run(const EventRunRequest& request, const TrainCallbacks& callbacks) {
  EventRunOutcome outcome;
  EventRunConfig& config = outcome.config;
  EventRunMetrics& metrics = outcome.metrics;
  std::optional<EventLog> log;
  EventSplit split;
  const RunSteps steps{
      [&] {
        log = read_event_log(request.data_path, request.log);
        split = split_event_log(*log, request.split);
        if (request.on_data_read) request.on_data_read(*log, split);
        config.data = preparation_of(*log, request, split);
        if (!log->feature_name.empty()) {
          const StandardScaler scaling = fit_feature_scaling(split.train);
          config.data.feature_mean = scaling.mean[0];
          config.data.feature_std = scaling.stddev[0];
          standardize_features(split, scaling);
        }
      },
      [&] {
        config.model = request.model;
        config.model.marks = split.marks;
        config.model.feature = !log->feature_name.empty();
        config.model.time_scale = split.train_mean_gap;
        config.model.validate();
        config.train = request.train;
        return require_event_training_memory(config.model, config.train.threads);
      },
      [&] { write_event_run_config(request.out_dir, config); },
      [&] {
        const ParameterLayout layout = ParameterLayout::for_events(config.model);
        std::vector<float> params;
        std::mt19937 rng(request.train.seed);
        init_parameters(params, layout, rng);

        const int window = config.model.backbone.seq_len;
        const EventWindows train_windows(split.train, window), val_windows(split.validation, window),
            test_windows(split.test, window);
        const EventTask train_task(config.model, train_windows), val_task(config.model, val_windows),
            test_task(config.model, test_windows);
        const PoissonProcess poisson = fit_poisson(split.train);
        metrics.poisson_rate = poisson.rate;
        metrics.poisson_test_nll_per_event = scored_gap_nll(poisson, split.test);
        metrics.validation = not_measured(val_windows.scored_events());
        metrics.test = not_measured(test_windows.scored_events());

        Trainer trainer(layout, params, request.train);
        const CheckpointedRun run{
            metrics,
            [&](const std::vector<float>& weights) { write_event_checkpoint(request.out_dir, config, weights); },
            [&] { write_event_run_metrics(request.out_dir, config, metrics); },
            [&](const EpochRecord& best) {
              // The validation loss is the NLL per event with gaps in units of s; + log s puts it in the data's.
              metrics.validation.nll_per_event = best.val_loss + std::log(config.model.time_scale);
            },
            [&] {
              metrics.validation = event_metrics(trainer, val_task);
              metrics.test = event_metrics(trainer, test_task);
            }};
        train_with_checkpoints(trainer, params, train_task, val_task, run, callbacks);
      }};
  run_in_order(steps, request.out_dir, request.on_memory_checked);
  return outcome;
}

EventRunData prepare_event_run_data(const EventRunConfig& config, const std::string& data_path,
                                    const CancelToken& token) {
  const EventDataPreparation& d = config.data;
  EventLogOptions options;
  options.set_token(token);
  options.time_column = d.time_column;
  options.sequence_column = d.sequence_column;
  options.mark_column = d.mark_column;
  options.mark_use = d.mark_use;
  options.unit = d.date_unit;
  options.decimal_mark = d.decimal_mark;
  EventRunData data;
  data.log = read_event_log(data_path, options);
  if (data.log.columns.time_is_date != d.time_is_date)
    throw std::runtime_error(data.log.source + ", column '" + d.time_column + "': holds " +
                             (data.log.columns.time_is_date ? "date-times" : "numbers") + " but the run was trained on " +
                             (d.time_is_date ? "date-times" : "numbers"));
  if (d.mark_use == MarkUse::categorical) renumber_marks(data.log, d.mark_names);
  data.split = split_event_log(data.log, d.split);
  standardize_features(data.split, StandardScaler{{d.feature_mean}, {d.feature_std}});
  return data;
}

double next_event_density(const NextEventDistribution& next, double time) {
  const double gap = time - next.last_time;
  if (!(gap > 0) || next.weights.empty()) return 0;
  const double log_density = mixture_log_density(next.weights.data(), next.mu.data(), next.sigma.data(),
                                                 int(next.weights.size()), std::log(gap / next.time_scale));
  return std::exp(log_density) / gap;
}

SequenceForecast forecast_event_sequence(const LoadedEventRun& run, const EventSequence& sequence) {
  const EventModelConfig& c = run.config.model;
  const std::size_t n = sequence.times.size();
  const std::string which = "sequence '" + sequence.id + "'";
  if (n == 0) throw std::invalid_argument(which + " has no events to forecast from");
  if (c.marks > 0 && sequence.marks.size() != n)
    throw std::invalid_argument(which + " has no mark for every event, but the run's model predicts marks");
  if (c.feature && sequence.features.size() != n)
    throw std::invalid_argument(which + " has no feature for every event, but the run's model reads one");
  const ParameterLayout layout = ParameterLayout::for_events(c);
  EventStream<float> stream(c, layout, run.params.data(), c.backbone.seq_len);
  SequenceForecast out;
  out.id = sequence.id;
  out.events.resize(n);
  const double log_scale = std::log(c.time_scale);

  const auto record = [&](std::size_t i) {
    EventPrediction& p = out.events[i];
    p.index = int(i);
    p.time = sequence.times[i];
    p.next = distribution_of(stream, c);
    const std::vector<double>& probs = p.next.mark_probabilities;
    if (c.marks > 0) p.predicted_mark = int(std::max_element(probs.begin(), probs.end()) - probs.begin());
    if (i + 1 >= n) return;
    p.has_actual = true;
    p.actual_next_time = sequence.times[i + 1];
    p.time_nll = scaled_time_nll(p.next, p.actual_next_time - p.time) + log_scale;
    if (c.marks > 0) {
      p.actual_next_mark = sequence.marks[i + 1];
      p.actual_mark_probability = probs[std::size_t(p.actual_next_mark)];
      p.mark_nll = -std::log(p.actual_mark_probability);
    }
  };
  const auto step = [&](std::size_t i) {
    stream.step(sequence.times[i], c.marks > 0 ? sequence.marks[i] : 0, c.feature ? sequence.features[i] : 0.0);
  };

  std::vector<EventWindowRange> windows = cut_event_windows(std::span<const EventSequence>(&sequence, 1),
                                                            c.backbone.seq_len);
  if (windows.empty()) windows.push_back({0, 0, int(n), sequence.origin});  // a single event: only its forecast
  for (const EventWindowRange& w : windows) {
    stream.reset(w.origin);
    for (int i = w.begin; i < w.end; ++i) {
      step(std::size_t(i));
      // A window's last event predicts nothing scored: the next window starts at it and predicts
      // the event after it. Only the end of the sequence keeps its forecast.
      if (i + 1 < w.end || w.end == int(n)) record(std::size_t(i));
    }
  }
  return out;
}

EventEvalMetrics forecast_eval_metrics(std::span<const SequenceForecast> forecasts, const EventModelConfig& config) {
  std::vector<double> sums(kEventMetricSums, 0.0);
  const double log_scale = std::log(config.time_scale);
  for (const SequenceForecast& forecast : forecasts)
    for (const EventPrediction& p : forecast.events) {
      if (!p.has_actual) continue;
      sums[kTimeNllSum] += p.time_nll - log_scale;
      const double error = p.next.mean_next_time - p.actual_next_time;
      sums[kSquaredErrorSum] += error * error;
      if (config.marks > 0) {
        sums[kMarkNllSum] += p.mark_nll;
        if (p.predicted_mark == p.actual_next_mark) sums[kCorrectMarksSum] += 1;
      }
      sums[kPredictionsSum] += 1;
    }
  return event_eval_metrics(sums, config);
}

}  // namespace aaren
