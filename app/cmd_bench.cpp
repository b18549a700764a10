// aaren bench ...: measurements printed as tables (medians), never pass/fail.
#include <cstdio>
#include <iostream>

#include "app/bench_attention_gpu.hpp"
#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/model_options.hpp"
#include "app/stream_figure.hpp"
#include "core/bench/attention_bench.hpp"
#include "core/bench/memory_bandwidth.hpp"
#include "core/bench/stream_bench.hpp"
#include "core/bench/train_bench.hpp"
#include "core/io/atomic_file.hpp"
#include "gpu/forecast_device.hpp"

namespace aaren::cli {

namespace {

const char* const kBenchHelp = R"(usage: aaren bench <what> [options]

  attention    many-to-many attention of one query over N tokens by every method
  train        training-step throughput of both models as the look-back grows
  stream       tokens one at a time through Aaren and a KV-cached Transformer:
               latency, cumulative time, state memory (the paper's Figure 5)

Run 'aaren bench <what> --help' for its options.
)";

const char* const kAttentionHelp = R"(usage: aaren bench attention [--device cpu|auto] [--min-log2 8] [--max-log2 20]
                             [--dim 64] [--repeats 5] [--naive-max 16384] [--seed 1]
       aaren bench attention --device cuda|auto [--batch 64] [--heads 16]
                             [--tokens 16384] [--dim 64] [--repeats 20] [--seed 1]

Times many-to-many attention (the output for every prefix) of one query over N
tokens, N = 2^min-log2 .. 2^max-log2, key and value dimension --dim, float32:
  sequential     the fused single-pass scan, scores computed on the fly
  brent-kung     work-efficient inclusive up-sweep/down-sweep scan of (m, u, w) states
  hillis-steele  the corrected Algorithm 1 scan, N log N combines
  naive          causal softmax recomputing every prefix, O(N^2); skipped
                 above --naive-max
Columns are median ns per token, ratios to the sequential scan, and the
sequential scan's bandwidth (K, V read once, O written once) as a share of a
STREAM-add loop moving the same bytes on this machine.

--device cuda times the same scan on the GPU for every head of a batch in one
launch (B x H sequences of N tokens, K and V as (B, N, H d), one query per
head) and reports its bandwidth against a device-to-device cudaMemcpy moving
the same bytes. --device auto uses CUDA where a device can be used, else the
CPU. 'aaren device' shows what is available.
)";

int bench_attention(const Arguments& arguments) {
  const Args args(arguments,
                  {"min-log2", "max-log2", "dim", "repeats", "naive-max", "seed", "device", "batch", "heads", "tokens"},
                  {}, "aaren bench attention");
  if (args.print_help(kAttentionHelp)) return 0;
  if (choose_device(args.text("device", "cpu")) == ComputeDevice::cuda) return bench_attention_on_gpu(args);
  for (const char* name : kGpuAttentionBenchOptions)
    if (args.has(name))
      throw UsageError(std::string("--") + name + " is an option of the CUDA benchmark; this one runs on the CPU");
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
                r.sequential * per_token, r.brent_kung * per_token, r.hillis_steele * per_token, naive,
                r.brent_kung / r.sequential, r.hillis_steele / r.sequential, naive_ratio, r.bytes / r.sequential / 1e9,
                100.0 * r.stream / r.sequential);
    std::fflush(stdout);
  });
  return 0;
}

const char* const kTrainHelp = R"(usage: aaren bench train [--seq-lens 96,512,2048] [--batch 32] [--steps 3]
                         [--repeats 3] [--threads N] [--device cpu|cuda|auto]
                         [architecture options]

Times full training steps (forward, backward, AdamW) of the Aaren and the
Transformer forecaster on random windows, for each look-back T, and prints
samples per second (median of the repeats) and how the cost per sample grows
from the first T: Aaren's grows about linearly in T, the Transformer's faster.
Defaults: d_model 64, heads 4, layers 2, d_ff 256, horizon 96, 7 channels.
--device cuda runs each whole step on the GPU; run it beside --device cpu to
compare the two.
)";

int bench_train(const Arguments& arguments) {
  std::set<std::string> names = kModelOptions;
  names.insert({"seq-lens", "batch", "steps", "repeats", "threads", "channels", "device"});
  const Args args(arguments, names, {}, "aaren bench train");
  if (args.print_help(kTrainHelp, kModelOptionsHelp, kDeviceOptionHelp)) return 0;
  const ComputeDevice device = choose_device(args.text("device", "cpu"));
  bench::TrainBenchOptions options;
  if (device == ComputeDevice::cuda) options.engine = gpu::make_forecast_engine;
  options.model = model_config_from(args, int(args.integer("channels", 7, 1, 4096)));
  options.seq_lens.clear();
  for (long t : args.integer_list("seq-lens", {96, 512, 2048}, 1, 1 << 16)) options.seq_lens.push_back(int(t));
  options.batch = int(args.integer("batch", options.batch, 1, 4096));
  options.steps = int(args.integer("steps", options.steps, 1, 100000));
  options.repeats = int(args.integer("repeats", options.repeats, 1, 1000));
  options.threads = int(args.integer("threads", 0, 0, 1024));
  std::printf("training step, batch %d, d_model %d, heads %d, layers %d, d_ff %d, horizon %d, %d channels\n",
              options.batch, options.model.d_model, options.model.heads, options.model.layers, options.model.d_ff,
              options.model.horizon, options.model.channels);
  std::printf("device: %s\n", describe_device(device).c_str());
  std::printf("%8s %-12s %-6s %14s %14s %18s\n", "T", "model", "device", "samples/s", "ms/step", "cost/sample vs T0");
  double base[2] = {0, 0};
  bench::run_train_bench(options, [&](const bench::TrainBenchRow& r) {
    const int k = r.kind == ModelKind::aaren ? 0 : 1;
    const double per_sample = 1.0 / r.samples_per_second;
    if (base[k] == 0) base[k] = per_sample;
    // The engine names its device in full ("cuda: <GPU>"); the header line already gives that.
    const std::string device_kind = r.device.substr(0, r.device.find(':'));
    std::printf("%8d %-12s %-6s %14.1f %14.1f %17.2fx\n", r.seq_len, std::string(to_string(r.kind)).c_str(),
                device_kind.c_str(), r.samples_per_second, 1e3 * r.seconds_per_step, per_sample / base[k]);
    std::fflush(stdout);
  });
  return 0;
}

const char* const kStreamHelp = R"(usage: aaren bench stream --tokens N --out stream.csv [--d-model 128] [--heads 4]
                          [--layers 4] [--d-ff 512] [--device cpu|cuda|auto] [--repeat 3]
                          [--samples 256] [--no-parallel] [--chart FILE.png|svg|pdf]

Streams N tokens, one step() at a time, through an Aaren model and a KV-cached
Transformer of the same size and records, at sampled token counts, each model's
per-token latency, cumulative time, state bytes (Aaren's (m, u, w); the KV cache),
bytes read per step (the weights a step uses and the state) and the process's
resident memory. The CSV has one row per sample. On the CPU it first measures
one thread's read bandwidth (a sum over a 256 MiB buffer, median of 5 passes):
out of the caches a step cannot be faster than reading its bytes, so for each
model it prints the bytes read per step at the largest N and the rate achieved
as a share of that bandwidth. The
last lines printed are the fitted growth (log-log slopes over the upper half of
N of per-token latency and of cumulative time; state bytes per token) and the
cumulative-time ratio at N.
--chart draws state memory and cumulative time side by side with a caption
(the paper's Figure 5) as PNG, SVG or PDF; it needs no display.
--device cuda streams on the GPU: each step uploads one input row, runs every
layer there and copies the hidden state back, and its time includes all of
that; the parallel forward is then not timed (it runs on the CPU only).
)";

int bench_stream(const Arguments& arguments) {
  const Args args(arguments, {"tokens", "d-model", "heads", "layers", "d-ff", "device", "repeat", "samples", "out",
                              "chart", "seed"},
                  {"no-parallel"}, "aaren bench stream");
  if (args.print_help(kStreamHelp, kDeviceOptionHelp)) return 0;
  bench::StreamBenchOptions options;
  options.tokens = args.integer("tokens", 0, 1, 1L << 24);
  if (!args.has("tokens")) throw UsageError("'aaren bench stream' needs --tokens N");
  const std::string out = args.required("out");
  options.model.d_model = int(args.integer("d-model", 128, 1, 8192));
  options.model.heads = int(args.integer("heads", 4, 1, 1024));
  options.model.layers = int(args.integer("layers", 4, 1, 256));
  options.model.d_ff = int(args.integer("d-ff", 512, 1, 65536));
  try {
    options.model.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const ComputeDevice device = choose_device(args.text("device", "cpu"));
  if (device == ComputeDevice::cuda) options.stepper = bench::device_stream_stepper<gpu::DeviceForecastStream>();
  options.repeats = int(args.integer("repeat", 3, 1, 100));
  options.samples = int(args.integer("samples", 256, 2, 100000));
  options.seed = unsigned(args.integer("seed", 1, 0, 4294967295L));
  options.parallel = !args.flag("no-parallel");
  const std::string chart = args.text("chart", "");
  if (args.has("chart") && !is_stream_figure_path(chart))
    throw UsageError("--chart: '" + chart + "' must end in .png, .svg or .pdf");
  if (args.has("chart") && !stream_figures_available())
    throw std::runtime_error("--chart: this aaren was built without charts (AAREN_CLI_CHARTS=OFF); rebuild with "
                             "-DAAREN_CLI_CHARTS=ON, or leave --chart out");

  std::printf("streaming %ld tokens: d_model %d, heads %d, layers %d, d_ff %d, %d repeats\ndevice: %s\n",
              options.tokens, options.model.d_model, options.model.heads, options.model.layers, options.model.d_ff,
              options.repeats, describe_device(device).c_str());
  if (device == ComputeDevice::cpu) {
    const bench::ReadBandwidth bandwidth = bench::measure_read_bandwidth();
    options.read_bandwidth = bandwidth.bytes_per_second;
    std::printf("memory: one thread reads %.1f GB/s (a sum over %zu MiB, median of %d passes)\n",
                bandwidth.bytes_per_second / 1e9, bandwidth.buffer_bytes >> 20, bandwidth.passes);
    std::fflush(stdout);
  }
  long next_report = 1024;
  const auto result = bench::run_stream_bench(options, [&](const bench::StreamSample& s) {
    if (s.tokens < next_report && s.tokens != options.tokens) return;
    while (next_report <= s.tokens) next_report *= 2;
    std::printf(
        "%8ld tokens  aaren %8.2f us/token %10.3f s %8.0f B | transformer %8.2f us/token %10.3f s %12.0f B | "
        "cumulative ratio %.1f\n",
        s.tokens, 1e6 * s.latency_seconds[0], s.cumulative_seconds[0], s.state_bytes[0], 1e6 * s.latency_seconds[1],
        s.cumulative_seconds[1], s.state_bytes[1], s.cumulative_seconds[1] / s.cumulative_seconds[0]);
    std::fflush(stdout);
  });
  write_file_atomically(out, bench::stream_csv(result));
  if (result.samples.empty()) throw std::runtime_error("nothing was measured");
  const auto& first = result.samples.front();
  const auto& last = result.samples.back();
  for (int k = 0; k < 2; ++k)
    if (result.parallel_seconds[k] >= 0)
      std::printf("parallel forward at N = %ld: %s %.3f s\n", last.tokens, k == 0 ? "aaren" : "transformer",
                  result.parallel_seconds[k]);
  if (!result.parallel_note.empty()) std::printf("%s\n", result.parallel_note.c_str());
  std::printf("wrote %zu samples to %s\n", result.samples.size(), out.c_str());
  if (!chart.empty()) {
    write_stream_figure(chart, options, result);
    std::printf("wrote the memory and cumulative-time charts (the paper's Figure 5) to %s\n", chart.c_str());
  }
  std::printf("state bytes at token %ld and %ld: aaren %.0f and %.0f; transformer %.0f and %.0f\n", first.tokens,
              last.tokens, first.state_bytes[0], last.state_bytes[0], first.state_bytes[1], last.state_bytes[1]);
  for (int k = 0; k < 2; ++k) {
    const bench::StepBound bound = bench::step_bound(result, k);
    std::printf("%-12s at N = %ld a step reads %.3f MB: %.1f GB/s", k == 0 ? "aaren:" : "transformer:", last.tokens,
                bound.bytes_read / 1e6, bound.bytes_per_second / 1e9);
    if (result.read_bandwidth > 0)
      std::printf(" = %.0f%% of one thread's read bandwidth", 100 * bound.fraction_of_bandwidth);
    std::printf("\n");
  }
  std::printf("aaren:       per-token exponent %.3f, time exponent %.3f, memory slope %.1f bytes/token\n",
              result.fit[0].latency_exponent, result.fit[0].time_exponent, result.fit[0].memory_bytes_per_token);
  std::printf(
      "transformer: per-token exponent %.3f, time exponent %.3f, memory slope %.1f bytes/token "
      "(2 x layers x d_model x 4 = %d)\n",
      result.fit[1].latency_exponent, result.fit[1].time_exponent, result.fit[1].memory_bytes_per_token,
      2 * options.model.layers * options.model.d_model * 4);
  std::printf("cumulative time at N = %ld: transformer / aaren = %.1f\n", last.tokens,
              last.cumulative_seconds[1] / last.cumulative_seconds[0]);
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
  if (args[0] == "train") return bench_train(rest);
  if (args[0] == "stream") return bench_stream(rest);
  throw UsageError("unknown benchmark '" + args[0] + "'");  // the help to read follows it
}

}  // namespace aaren::cli
