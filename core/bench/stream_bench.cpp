#include "core/bench/stream_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/bench/memory_bandwidth.hpp"
#include "core/bench/stream_summary.hpp"
#include "core/bench/timing.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/model/forecast_model.hpp"
#include "core/model/forecast_stream.hpp"
#include "core/train/cpu_only_models.hpp"
#include "core/util/process_memory.hpp"

namespace aaren::bench {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<long> sample_points(long tokens, int samples) {
  std::vector<long> points;
  // A quarter of the samples log-spaced from token 1 up to where the even spacing starts, so the
  // first tokens are seen in detail and the charts fill from the start.
  const int log_part = samples / 4;
  const double log_top = double(tokens) * double(log_part) / double(samples);
  for (int i = 0; i < log_part; ++i)
    points.push_back(std::max(1L, long(std::round(std::pow(log_top, double(i) / double(log_part))))));
  for (int i = log_part; i <= samples; ++i) points.push_back(std::max(1L, tokens * i / samples));
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

class CpuStepper : public TokenStepper {
 public:
  CpuStepper(const ModelConfig& config, const float* params, long capacity)
      : layout_(config), stream_(config, layout_, params, capacity) {}
  void reset() override { stream_.reset(); }
  void step(const float* x) override { stream_.step(x); }
  std::size_t state_bytes() const override { return stream_.state_bytes(); }

 private:
  ParameterLayout layout_;
  ForecastStream<float> stream_;
};

struct Model {
  ModelConfig config;
  ParameterLayout layout;
  std::vector<float> params;
  std::unique_ptr<TokenStepper> stream;
  Model(const ModelConfig& c, long capacity, unsigned seed, const TokenStepperFactory& stepper)
      : config(c), layout(c), params(init(layout, seed)),
        stream(stepper ? stepper(c, params.data(), capacity)
                       : std::make_unique<CpuStepper>(c, params.data(), capacity)) {}
  static std::vector<float> init(const ParameterLayout& layout, unsigned seed) {
    std::vector<float> p;
    std::mt19937 rng(seed);
    init_parameters(p, layout, rng);
    return p;
  }
};

}  // namespace

std::size_t stream_state_bytes(const ModelConfig& config, long tokens) {
  const std::size_t layers = std::size_t(config.layers), d_model = std::size_t(config.d_model);
  const std::size_t heads = std::size_t(config.heads), d_head = std::size_t(config.d_head());
  switch (config.kind) {
    case ModelKind::aaren: return layers * (d_model + 2 * heads) * sizeof(float);
    case ModelKind::transformer: break;
    // (S, z) per head, each with its compensation terms in float (core/attention/linear_attention.hpp).
    case ModelKind::linear: return 2 * layers * heads * (d_head * d_head + d_head) * sizeof(float);
  }
  return 2 * layers * d_model * std::size_t(tokens) * sizeof(float);
}

std::size_t stream_step_bytes(const ModelConfig& config, long tokens) {
  const std::size_t d = std::size_t(config.d_model), f = std::size_t(config.d_ff);
  const std::size_t projections = config.kind == ModelKind::aaren ? 3 : 4;  // k, v, o (and q)
  const std::size_t block = 2 * d + projections * (d * d + d) + 2 * d + (f * d + f) + (d * f + d);
  const std::size_t parameters = std::size_t(config.channels) * d + d + std::size_t(config.layers) * block;
  return parameters * sizeof(float) + stream_state_bytes(config, tokens);
}

double fitted_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = double(x.size());
  if (x.size() < 2) return 0;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxx > 0 ? sxy / sxx : 0;
}

GrowthFit fit_growth(const std::vector<StreamSample>& samples, int model) { return fit_growth(samples, model, {}); }

StreamBenchResult run_stream_bench(const StreamBenchOptions& options,
                                   const std::function<void(const StreamSample&)>& progress,
                                   const std::atomic<bool>* stop) {
  StreamBenchResult result;
  result.kinds = streamed_kinds(options);
  for (const ModelKind kind : options.kinds)
    if (std::find(result.kinds.begin(), result.kinds.end(), kind) == result.kinds.end())
      result.left_out_note += (result.left_out_note.empty() ? "not streamed: " : "; ") + cpu_only_reason(kind);
  if (result.kinds.empty())
    throw std::invalid_argument(options.kinds.empty() ? "a stream needs at least one model" : result.left_out_note);
  // Before the models are built, so the probe's buffer and theirs are never held at once. It
  // measures the CPU's memory, so a stream on another device is not compared with it.
  if (options.read_bandwidth)
    result.read_bandwidth = *options.read_bandwidth;
  else if (options.probe_bandwidth && !options.stepper)
    result.read_bandwidth = measure_read_bandwidth().bytes_per_second;
  ModelConfig base = options.model;
  base.channels = 1;
  base.seq_len = 1;
  base.horizon = 1;
  // Room for the warm-up too, which a device's fixed KV cache must hold before the first reset.
  const long capacity = std::max(options.tokens, options.warmup);
  std::vector<std::unique_ptr<Model>> models;  // as result.kinds
  for (const ModelKind kind : result.kinds) {
    ModelConfig config = base;
    config.kind = kind;
    config.validate();
    models.push_back(std::make_unique<Model>(config, capacity, options.seed, options.stepper));
  }

  // The same inputs for every model, generated before anything is timed.
  std::vector<float> inputs(std::size_t(std::max(options.tokens, options.warmup)));
  std::mt19937 rng(options.seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& x : inputs) x = normal(rng);
  for (const auto& m : models) {
    for (long t = 0; t < options.warmup; ++t) m->stream->step(&inputs[std::size_t(t)]);
  }

  const std::vector<long> points = sample_points(options.tokens, options.samples);
  const int repeats = std::max(1, options.repeats);
  // steps[k][r][t]: the raw time of step t of model k in pass r (a stopped pass is shorter).
  std::vector<std::vector<std::vector<float>>> steps(models.size());
  for (auto& model_steps : steps) model_steps.reserve(std::size_t(repeats));
  std::vector<double> live_cumulative(models.size(), 0.0);
  for (int r = 0; r < repeats && !result.stopped_early; ++r) {
    for (const auto& m : models) m->stream->reset();
    for (auto& model_steps : steps) {
      model_steps.emplace_back();
      model_steps.back().reserve(std::size_t(options.tokens));
    }
    long done = 0;
    for (std::size_t s = 0; s < points.size(); ++s) {
      if (stop && stop->load()) {
        result.stopped_early = true;
        break;
      }
      StreamSample sample;
      sample.tokens = points[s];
      for (std::size_t m = 0; m < models.size(); ++m) {
        TokenStepper& stream = *models[m]->stream;
        std::vector<float>& pass = steps[m].back();
        for (long t = done; t < points[s]; ++t) {
          const auto start = Clock::now();
          stream.step(&inputs[std::size_t(t)]);
          pass.push_back(float(std::chrono::duration<double>(Clock::now() - start).count()));
        }
        if (r > 0) continue;
        // The first pass is shown as it comes, with the same typical step times as the result.
        const int k = stream_model_index(result.kinds[m]);
        for (long t = done; t < points[s]; ++t) live_cumulative[m] += typical_step_seconds(pass, t);
        sample.latency_seconds[k] = sample.latency_low_seconds[k] = sample.latency_high_seconds[k] =
            typical_step_seconds(pass, points[s] - 1);
        sample.cumulative_seconds[k] = sample.cumulative_low_seconds[k] = sample.cumulative_high_seconds[k] =
            live_cumulative[m];
        sample.state_bytes[k] = double(stream.state_bytes());
        sample.bytes_read[k] = double(stream_step_bytes(models[m]->config, points[s]));
        sample.resident_bytes[k] = double(resident_bytes());
      }
      done = points[s];
      if (r == 0) {
        result.samples.push_back(sample);
        if (progress) progress(sample);
      }
    }
  }
  // The samples the first pass reached, robust over every pass (core/bench/stream_summary.hpp).
  for (std::size_t m = 0; m < models.size(); ++m) {
    const int k = stream_model_index(result.kinds[m]);
    std::vector<std::vector<double>> pass_cumulative;
    summarize_model(steps[m], points, k, result.samples, pass_cumulative);
    result.fit[k] = fit_growth(result.samples, k, pass_cumulative);
  }

  if (options.parallel && options.stepper && !result.samples.empty())
    result.parallel_note = "the parallel forward is timed on the CPU only, so it was skipped for this device";
  if (options.parallel && !options.stepper && !result.stopped_early && !result.samples.empty()) {
    const long n = result.samples.back().tokens;
    for (const auto& model : models) {
      ModelConfig c = model->config;
      c.seq_len = int(n);
      const double bytes = double(forward_state_bytes(c, sizeof(float)));
      if (bytes > options.parallel_memory_limit_bytes) {
        std::ostringstream note;
        note << to_string(c.kind) << " parallel forward at N = " << n << " skipped: it needs about "
             << std::llround(bytes / 1e9) << " GB of activations";
        result.parallel_note += (result.parallel_note.empty() ? "" : "; ") + note.str();
        continue;
      }
      ForwardState<float> state(c);
      const std::vector<float> x(inputs.begin(), inputs.begin() + n);
      result.parallel_seconds[stream_model_index(c.kind)] = median_seconds(
          [&] { forecast_forward(state, model->params.data(), model->layout, c, x.data()); }, 1, 0.0);
    }
  }
  return result;
}

std::vector<ModelKind> streamed_kinds(const StreamBenchOptions& options) {
  // A device stepper runs on a GPU, which some models do not (core/train/cpu_only_models.hpp).
  std::vector<ModelKind> kinds;
  for (const ModelKind kind : options.kinds)
    if (!options.stepper || cpu_only_reason(kind).empty()) kinds.push_back(kind);
  return kinds;
}

bool streamed(const StreamBenchResult& result, ModelKind kind) {
  return std::find(result.kinds.begin(), result.kinds.end(), kind) != result.kinds.end();
}

StepBound step_bound(const StreamBenchResult& result, int model) {
  StepBound bound;
  if (result.samples.empty()) return bound;
  const StreamSample& last = result.samples.back();
  bound.bytes_read = last.bytes_read[model];
  if (last.latency_seconds[model] > 0) bound.bytes_per_second = bound.bytes_read / last.latency_seconds[model];
  if (result.read_bandwidth > 0) bound.fraction_of_bandwidth = bound.bytes_per_second / result.read_bandwidth;
  return bound;
}

std::string stream_csv(const StreamBenchResult& result) {
  const bool linear = streamed(result, ModelKind::linear);
  std::string csv =
      "tokens,aaren_latency_s,transformer_latency_s,aaren_cumulative_s,transformer_cumulative_s,"
      "aaren_state_bytes,transformer_state_bytes,aaren_rss_bytes,transformer_rss_bytes,"
      "aaren_bytes_read,transformer_bytes_read";
  csv += linear ? ",linear_latency_s,linear_cumulative_s,linear_state_bytes,linear_rss_bytes,linear_bytes_read\n" : "\n";
  const int k_linear = stream_model_index(ModelKind::linear);
  for (const StreamSample& s : result.samples) {
    csv += std::to_string(s.tokens);
    for (const double* values :
         {s.latency_seconds, s.cumulative_seconds, s.state_bytes, s.resident_bytes, s.bytes_read})
      for (const ModelKind kind : {ModelKind::aaren, ModelKind::transformer})
        csv += "," + format_number(values[stream_model_index(kind)]);
    if (linear)
      for (const double* values :
           {s.latency_seconds, s.cumulative_seconds, s.state_bytes, s.resident_bytes, s.bytes_read})
        csv += "," + format_number(values[k_linear]);
    csv += "\n";
  }
  return csv;
}

}  // namespace aaren::bench
