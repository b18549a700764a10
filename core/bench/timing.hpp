#pragma once
// Timing helpers for benchmarks: medians over repeated runs, never assertions.
#include <algorithm>
#include <chrono>
#include <vector>

namespace aaren::bench {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline double median(std::vector<double> xs) {
  if (xs.empty()) return 0;
  std::sort(xs.begin(), xs.end());
  const std::size_t mid = xs.size() / 2;
  return xs.size() % 2 ? xs[mid] : 0.5 * (xs[mid - 1] + xs[mid]);
}

// Median seconds of one call of f over `repeats` timed runs, after one untimed warm-up run.
// Short calls are batched so each timed run lasts at least min_seconds.
template <class F>
double median_seconds(F&& f, int repeats, double min_seconds = 0.02) {
  f();
  int batch = 1;
  for (;;) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) f();
    if (seconds_since(start) >= min_seconds || batch >= (1 << 20)) break;
    batch *= 2;
  }
  std::vector<double> runs;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) f();
    runs.push_back(seconds_since(start) / batch);
  }
  return median(runs);
}

}  // namespace aaren::bench
