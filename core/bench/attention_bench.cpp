#include "core/bench/attention_bench.hpp"

#include <random>

#include "core/attention/methods.hpp"
#include "core/attention/prefix_attention.hpp"
#include "core/bench/timing.hpp"

namespace aaren::bench {

namespace {

// Scores of the query against every key, as the state-array scans need them first.
void scores_of(std::vector<float>& s, const std::vector<float>& q, const std::vector<float>& k, long n, int d) {
  for (long i = 0; i < n; ++i) {
    float dot = 0;
    for (int j = 0; j < d; ++j) dot += q[std::size_t(j)] * k[std::size_t(i * d + j)];
    s[std::size_t(i)] = dot;
  }
}

}  // namespace

std::vector<AttentionBenchRow> run_attention_bench(const AttentionBenchOptions& options,
                                                   const std::function<void(const AttentionBenchRow&)>& progress) {
  std::vector<AttentionBenchRow> rows;
  std::mt19937 rng(options.seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int d = options.d, dv = options.d;
  const float scale = 1.0f / std::sqrt(float(d));
  for (int e = options.min_log2_n; e <= options.max_log2_n; ++e) {
    const long n = 1L << e;
    // Every buffer is written before timing, so page faults are not measured.
    std::vector<float> q(std::size_t(d), 0.0f), k(std::size_t(n * d), 0.0f), v(std::size_t(n * dv), 0.0f);
    std::vector<float> o(std::size_t(n * dv), 0.0f), s(std::size_t(n), 0.0f);
    for (auto& x : q) x = normal(rng);
    for (auto& x : k) x = normal(rng);
    for (auto& x : v) x = normal(rng);
    const int repeats = n >= (1L << 18) ? std::max(1, options.repeats / 2) : options.repeats;

    AttentionBenchRow row;
    row.n = n;
    row.bytes = double(sizeof(float)) * double(n) * double(d + 2 * dv);
    row.sequential = median_seconds(
        [&] { prefix_attention_forward<float>(o.data(), nullptr, q.data(), k.data(), v.data(), int(n), d, dv, scale, d, dv, dv); },
        repeats);
    // STREAM "add" over the same buffers moves exactly the same bytes: reads K and V, writes O.
    row.stream = median_seconds(
        [&] {
          for (std::size_t i = 0; i < o.size(); ++i) o[i] = k[i] + v[i];
        },
        repeats);
    const auto time_scan = [&](AttentionMethod method) {
      AttentionOptions attention;
      attention.method = method;
      return median_seconds(
          [&] {
            scores_of(s, q, k, n, d);
            attend_prefixes<float>(o, s, v, dv, attention);
          },
          repeats);
    };
    row.brent_kung = time_scan(AttentionMethod::brent_kung);
    row.hillis_steele = time_scan(AttentionMethod::hillis_steele);
    if (n <= options.naive_max_n) {
      AttentionOptions naive;
      naive.method = AttentionMethod::conventional;
      row.naive = median_seconds(
          [&] {
            scores_of(s, q, k, n, d);
            attend_prefixes<float>(o, s, v, dv, naive);
          },
          n >= 4096 ? 1 : repeats, 0.0);
    }
    rows.push_back(row);
    if (progress) progress(row);
  }
  return rows;
}

}  // namespace aaren::bench
