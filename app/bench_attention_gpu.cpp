#include "app/bench_attention_gpu.hpp"

#include <cstdio>
#include <string>

#include "gpu/attention_bench.hpp"

namespace aaren::cli {

int bench_attention_on_gpu(const gpu::AttentionBenchOptions& options) {
  std::printf("many-to-many attention on CUDA: B %d x H %d sequences of N %d tokens, one query per head, "
              "d = d_v = %d, float32, one launch, median of %d runs\n",
              options.batch, options.heads, options.n, options.d, options.repeats);
  std::fflush(stdout);
  const gpu::AttentionBenchResult r = gpu::run_attention_bench(options);
  const double scan_bandwidth = r.forward_bytes / r.forward_seconds;
  const double copy_bandwidth = r.copy_bytes / r.copy_seconds;
  const double tokens = double(options.batch) * options.heads * options.n;
  std::printf("device: %s\n", r.device.c_str());
  std::printf("%-28s %12s %14s %10s\n", "", "ms", "GB/s", "ns/token");
  std::printf("%-28s %12.3f %14.1f %10.4f\n", "forward scan (K, V, O)", 1e3 * r.forward_seconds, scan_bandwidth / 1e9,
              1e9 * r.forward_seconds / tokens);
  std::printf("%-28s %12.3f %14.1f %10s\n", "cudaMemcpy, same bytes", 1e3 * r.copy_seconds, copy_bandwidth / 1e9, "-");
  std::printf("scan bandwidth / copy bandwidth: %.0f%% (target: at least 60%%)\n", 100.0 * scan_bandwidth / copy_bandwidth);
  return 0;
}

}  // namespace aaren::cli
