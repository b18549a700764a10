#pragma once
// `aaren bench attention`: many-to-many attention of one query over N tokens, every method timed
// on the same data, against this machine's memory-streaming bandwidth for the same bytes.
#include <functional>
#include <vector>

namespace aaren::bench {

struct AttentionBenchOptions {
  int min_log2_n = 8;
  int max_log2_n = 20;
  int d = 64;  // key and value dimension (d = d_v, so the stream reference moves the same bytes)
  int repeats = 5;
  long naive_max_n = 16384;  // the O(N^2) causal softmax is skipped above this
  unsigned seed = 1;
};

struct AttentionBenchRow {
  long n = 0;
  // Seconds per call (median); a negative value means the method was skipped at this N.
  double sequential = 0;     // fused single pass, scores on the fly
  double brent_kung = 0;     // scan of (m, u, w) states, work-efficient
  double hillis_steele = 0;  // scan of (m, u, w) states, N log N work
  double naive = -1;         // causal softmax, every prefix from scratch
  double stream = 0;         // o[i] = k[i] + v[i] over the same bytes (read K, V; write O)
  double bytes = 0;          // bytes the sequential scan must move: K and V read, O written
};

// Runs the whole table; `progress` (if set) is called after each row.
std::vector<AttentionBenchRow> run_attention_bench(const AttentionBenchOptions& options,
                                                   const std::function<void(const AttentionBenchRow&)>& progress = {});

}  // namespace aaren::bench
