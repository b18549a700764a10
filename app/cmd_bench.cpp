// aaren bench ...: measurements printed as tables (medians), never pass/fail.
#include <cstdio>
#include <iostream>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "core/bench/attention_bench.hpp"

namespace aaren::cli {

namespace {

const char* const kBenchHelp = R"(usage: aaren bench <what> [options]

  attention    many-to-many attention of one query over N tokens by every method

Run 'aaren bench <what> --help' for its options.
)";

const char* const kAttentionHelp = R"(usage: aaren bench attention [--min-log2 8] [--max-log2 20] [--dim 64]
                             [--repeats 5] [--naive-max 16384] [--seed 1]

Times many-to-many attention (the output for every prefix) of one query over N
tokens, N = 2^min-log2 .. 2^max-log2, key and value dimension --dim, float32:
  sequential     the fused single-pass scan, scores computed on the fly
  blelloch       work-efficient up-sweep/down-sweep scan of (m, u, w) states
  hillis-steele  the corrected Algorithm 1 scan, N log N combines
  naive          causal softmax recomputing every prefix, O(N^2); skipped
                 above --naive-max
Columns are median ns per token, ratios to the sequential scan, and the
sequential scan's bandwidth (K, V read once, O written once) as a share of a
STREAM-add loop moving the same bytes on this machine.
)";

int bench_attention(const Arguments& arguments) {
  const Args args(arguments, {"min-log2", "max-log2", "dim", "repeats", "naive-max", "seed"}, {},
                  "aaren bench attention");
  if (args.help()) {
    std::cout << kAttentionHelp;
    return 0;
  }
  bench::AttentionBenchOptions options;
  options.min_log2_n = int(args.integer("min-log2", options.min_log2_n, 0, 26));
  options.max_log2_n = int(args.integer("max-log2", options.max_log2_n, options.min_log2_n, 26));
  options.d = int(args.integer("dim", options.d, 1, 4096));
  options.repeats = int(args.integer("repeats", options.repeats, 1, 1000));
  options.naive_max_n = args.integer("naive-max", options.naive_max_n, 0, 1L << 26);
  options.seed = unsigned(args.integer("seed", options.seed, 0, 1L << 31));

  std::printf("many-to-many attention, one query, d = d_v = %d, float32, median of %d runs\n", options.d,
              options.repeats);
  std::printf("%9s %12s %12s %12s %12s %10s %10s %10s %9s %9s\n", "N", "seq ns/tok", "blel ns/tok",
              "h-s ns/tok", "naive ns/tok", "blel/seq", "h-s/seq", "naive/seq", "seq GB/s", "% stream");
  bench::run_attention_bench(options, [](const bench::AttentionBenchRow& r) {
    const double per_token = 1e9 / double(r.n);
    char naive[32] = "-", naive_ratio[32] = "-";
    if (r.naive >= 0) {
      std::snprintf(naive, sizeof naive, "%.1f", r.naive * per_token);
      std::snprintf(naive_ratio, sizeof naive_ratio, "%.0f", r.naive / r.sequential);
    }
    std::printf("%9ld %12.2f %12.2f %12.2f %12s %10.1f %10.1f %10s %9.2f %8.0f%%\n", r.n,
                r.sequential * per_token, r.blelloch * per_token, r.hillis_steele * per_token, naive,
                r.blelloch / r.sequential, r.hillis_steele / r.sequential, naive_ratio, r.bytes / r.sequential / 1e9,
                100.0 * r.stream / r.sequential);
    std::fflush(stdout);
  });
  return 0;
}

}  // namespace

int run_bench(const Arguments& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kBenchHelp;
    return args.empty() ? 2 : 0;
  }
  const Arguments rest(args.begin() + 1, args.end());
  if (args[0] == "attention") return bench_attention(rest);
  throw UsageError("unknown benchmark '" + args[0] + "'; try 'aaren bench --help'");
}

}  // namespace aaren::cli
