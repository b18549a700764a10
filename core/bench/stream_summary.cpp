#include "core/bench/stream_summary.hpp"

#include <algorithm>
#include <cmath>

#include "core/bench/timing.hpp"

namespace aaren::bench {

namespace {

// The q-quantile (0..1) of xs, by the nearest rank.
double quantile(std::vector<double> xs, double q) {
  if (xs.empty()) return 0;
  const std::size_t k = std::min(xs.size() - 1, std::size_t(std::llround(q * double(xs.size() - 1))));
  std::nth_element(xs.begin(), xs.begin() + std::ptrdiff_t(k), xs.end());
  return xs[k];
}

bool reaches(const std::vector<float>& pass, long tokens) { return long(pass.size()) >= tokens; }

}  // namespace

double typical_step_seconds(const std::vector<float>& steps, long t) {
  const long first = std::max(0L, t - kStepWindow + 1);
  return median(std::vector<double>(steps.begin() + first, steps.begin() + t + 1));
}

void summarize_model(const std::vector<std::vector<float>>& passes, const std::vector<long>& points, int model,
                     std::vector<StreamSample>& samples, std::vector<std::vector<double>>& pass_cumulative) {
  pass_cumulative.clear();
  if (passes.empty()) return;
  const long reached = long(passes.front().size());
  std::size_t count = 0;
  while (count < points.size() && points[count] <= reached) ++count;
  if (samples.size() < count) samples.resize(count);

  // Every pass's typical step times; then, token by token, their median over the passes there.
  std::vector<std::vector<double>> typical(passes.size());
  for (std::size_t p = 0; p < passes.size(); ++p) {
    typical[p].resize(passes[p].size());
    for (long t = 0; t < long(passes[p].size()); ++t) typical[p][std::size_t(t)] = typical_step_seconds(passes[p], t);
  }
  std::vector<double> combined(static_cast<std::size_t>(reached));
  std::vector<double> across;
  for (long t = 0; t < reached; ++t) {
    across.clear();
    for (const auto& pass : typical)
      if (long(pass.size()) > t) across.push_back(pass[std::size_t(t)]);
    combined[std::size_t(t)] = median(across);
  }

  std::vector<std::size_t> full;  // the passes that reached every sample
  for (std::size_t p = 0; p < passes.size(); ++p)
    if (reaches(passes[p], count ? points[count - 1] : 0)) full.push_back(p);
  pass_cumulative.assign(full.size(), std::vector<double>(count));

  std::vector<double> pass_sum(passes.size(), 0.0), wall_sum(passes.size(), 0.0);
  double sum = 0;
  long done = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const long n = points[s];
    for (long t = done; t < n; ++t) {
      sum += combined[std::size_t(t)];
      for (std::size_t p = 0; p < passes.size(); ++p)
        if (long(passes[p].size()) > t) {
          pass_sum[p] += typical[p][std::size_t(t)];
          wall_sum[p] += double(passes[p][std::size_t(t)]);
        }
    }
    done = n;
    StreamSample& sample = samples[s];
    sample.tokens = n;
    sample.latency_seconds[model] = combined[std::size_t(n - 1)];
    sample.cumulative_seconds[model] = sum;
    // The spread of the steps around this one: quartiles of the raw times over every pass.
    std::vector<double> window, cumulative, wall;
    for (std::size_t p = 0; p < passes.size(); ++p) {
      if (!reaches(passes[p], n)) continue;
      for (long t = std::max(0L, n - kStepWindow); t < n; ++t) window.push_back(double(passes[p][std::size_t(t)]));
      cumulative.push_back(pass_sum[p]);
      wall.push_back(wall_sum[p]);
    }
    sample.latency_low_seconds[model] = quantile(window, 0.25);
    sample.latency_high_seconds[model] = quantile(window, 0.75);
    // The band spans the passes and the median curve itself (a sum of per-token medians can lie
    // just outside every single pass), so the line never leaves its band.
    sample.cumulative_low_seconds[model] = std::min(sum, *std::min_element(cumulative.begin(), cumulative.end()));
    sample.cumulative_high_seconds[model] = std::max(sum, *std::max_element(cumulative.begin(), cumulative.end()));
    sample.wall_seconds[model] = median(wall);
    sample.passes = int(cumulative.size());
    for (std::size_t f = 0; f < full.size(); ++f) pass_cumulative[f][s] = pass_sum[full[f]];
  }
}

GrowthFit fit_growth(const std::vector<StreamSample>& samples, int model,
                     const std::vector<std::vector<double>>& pass_cumulative) {
  GrowthFit fit;
  if (samples.empty()) return fit;
  const double last = double(samples.back().tokens);
  std::vector<double> n, bytes, log_n, log_t, log_latency;
  std::vector<std::size_t> used;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    const StreamSample& sample = samples[s];
    n.push_back(double(sample.tokens));
    bytes.push_back(sample.state_bytes[model]);
    if (double(sample.tokens) < last / 2) continue;
    const double c = sample.cumulative_seconds[model];
    if (!(c > 0) || !(sample.latency_seconds[model] > 0)) continue;
    // Passes that disagree this much measured the machine's load, not the model.
    const double spread = sample.cumulative_high_seconds[model] - sample.cumulative_low_seconds[model];
    if (spread > kMaxRelativeSpread * c) continue;
    used.push_back(s);
    log_n.push_back(std::log(double(sample.tokens)));
    log_t.push_back(std::log(c));
    log_latency.push_back(std::log(sample.latency_seconds[model]));
  }
  fit.memory_bytes_per_token = fitted_slope(n, bytes);
  fit.fit_points = int(used.size());
  fit.passes = std::max(1, samples.back().passes);
  if (used.empty()) return fit;
  fit.fit_from_tokens = samples[used.front()].tokens;
  fit.fit_to_tokens = samples[used.back()].tokens;
  fit.time_exponent = fitted_slope(log_n, log_t);
  fit.latency_exponent = fitted_slope(log_n, log_latency);
  fit.time_exponent_low = fit.time_exponent_high = fit.time_exponent;
  for (const std::vector<double>& pass : pass_cumulative) {
    std::vector<double> x, y;
    for (std::size_t s : used)
      if (s < pass.size() && pass[s] > 0) {
        x.push_back(std::log(double(samples[s].tokens)));
        y.push_back(std::log(pass[s]));
      }
    if (x.size() < 2) continue;
    const double k = fitted_slope(x, y);
    fit.time_exponent_low = std::min(fit.time_exponent_low, k);
    fit.time_exponent_high = std::max(fit.time_exponent_high, k);
  }
  return fit;
}

GrowthShape growth_shape(const GrowthFit& fit) {
  if (fit.fit_points < kMinFitPoints) return GrowthShape::unmeasured;
  if (fit.passes < 2) return GrowthShape::single_pass;
  if (fit.time_exponent_low >= 1 - kStraightTolerance && fit.time_exponent_high <= 1 + kStraightTolerance)
    return GrowthShape::straight;
  if (fit.time_exponent_low > 1 + kStraightTolerance) return GrowthShape::bends_upward;
  return GrowthShape::uncertain;
}

}  // namespace aaren::bench
