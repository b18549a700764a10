// aaren bench ...: measurements printed as tables (medians), never pass/fail.
#include <cctype>
#include <cstdio>
#include <iterator>
#include <iostream>
#include <memory>

#include "app/bench_attention_gpu.hpp"
#include "app/commands.hpp"
#include "app/device_choice.hpp"
#include "app/stream_figure.hpp"
#include "core/bench/attention_bench.hpp"
#include "core/bench/decision_act_bench.hpp"
#include "core/bench/memory_bandwidth.hpp"
#include "core/bench/stream_bench.hpp"
#include "core/bench/train_bench.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/rl/decision_run.hpp"
#include "core/util/step_profile.hpp"
#include "gpu/forecast_device.hpp"

namespace aaren::cli {

namespace {

const char* const kBenchText = "measurements printed as tables (medians), never pass/fail";

const char* const kAttentionText = R"(many-to-many attention of one query over N tokens by every method

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

struct AttentionOptions {
  const CLI::App* app = nullptr;
  bench::AttentionBenchOptions cpu;
  gpu::AttentionBenchOptions gpu;
  std::string device = "cpu";
};

int bench_attention(AttentionOptions& o) {
  bench::AttentionBenchOptions& options = o.cpu;
  if (choose_device(o.device) == ComputeDevice::cuda) {
    for (const char* name : {"--min-log2", "--max-log2", "--naive-max"})
      if (given(o.app, name)) throw UsageError(std::string(name) + " is an option of the CPU benchmark; this one runs on CUDA");
    // The options both benchmarks take; the GPU's defaults where they were not given.
    if (given(o.app, "--dim")) o.gpu.d = options.d;
    if (given(o.app, "--repeats")) o.gpu.repeats = options.repeats;
    if (given(o.app, "--seed")) o.gpu.seed = options.seed;
    return bench_attention_on_gpu(o.gpu);
  }
  for (const char* name : {"--batch", "--heads", "--tokens"})
    if (given(o.app, name))
      throw UsageError(std::string(name) + " is an option of the CUDA benchmark; this one runs on the CPU");
  if (options.max_log2_n < options.min_log2_n)
    throw UsageError("--max-log2 must be at least --min-log2 (" + std::to_string(options.min_log2_n) + "), got " +
                     std::to_string(options.max_log2_n));

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

const char* const kTrainText = R"(training-step throughput of the three models as the look-back grows

Times full training steps (forward, backward, AdamW) of the Aaren, the
Transformer and the linear Transformer forecaster on random windows, for each
look-back T, and prints samples per second (median of the repeats) and how the
cost per sample grows from the first T: Aaren's and the linear Transformer's
grow about linearly in T, the Transformer's faster. On the CPU it also prints
the rate a step reaches, its operations (every matrix product and the attention,
forward and backward, counted from the configuration: docs/DESIGN.md section 4)
over its time, and that rate's share of this machine's SGEMM rate, measured
first for each row with Eigen on the same workers at the shapes the step
multiplies. --device cuda runs each whole step on the GPU (Aaren and the
Transformer; the GPU model does not run the linear Transformer yet); run it
beside --device cpu to compare the two. --out writes every row as CSV;
--profile adds where each step's time goes.
)";

struct TrainOptions {
  bench::TrainBenchOptions bench;
  std::vector<int> seq_lens = {96, 512, 2048};
  std::string device = "cpu";
  std::string model = "all";
  std::string out;  // CSV of the rows; empty: none
};

// "matrix products" -> "matrix_products", for a CSV column.
std::string column_name(const char* part) {
  std::string name = part;
  for (char& c : name) c = c == ' ' ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::string train_bench_csv(const std::vector<bench::TrainBenchRow>& rows, bool profiled) {
  std::string csv =
      "seq_len,model,device,samples_per_second,seconds_per_step,step_gflop,gflops,sgemm_gflops,sgemm_share";
  if (profiled) {
    for (const profile::Part part : profile::kAllParts) csv += "," + column_name(profile::name(part)) + "_seconds";
    csv += ",worker_seconds";
  }
  csv += "\n";
  for (const bench::TrainBenchRow& r : rows) {
    char line[256];
    std::snprintf(line, sizeof line, "%d,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", r.seq_len,
                  std::string(to_string(r.kind)).c_str(), r.device.substr(0, r.device.find(':')).c_str(),
                  r.samples_per_second, r.seconds_per_step, r.step_gflop, r.gflops, r.sgemm_gflops, r.sgemm_share());
    csv += line;
    if (profiled) {
      for (const double seconds : r.part_seconds) {
        std::snprintf(line, sizeof line, ",%.6g", seconds);
        csv += line;
      }
      std::snprintf(line, sizeof line, ",%.6g", r.worker_seconds);
      csv += line;
    }
    csv += "\n";
  }
  return csv;
}

// The --profile table: each part's share of the workers' time per step, and what is left.
void print_train_profile(const std::vector<bench::TrainBenchRow>& rows) {
  std::printf("\nwhere a step's time goes (--profile: CPU time in each part, summed over the workers, as a share\n"
              "of the workers' whole time, their count times the step's wall time, in a run of its own; the rest\n"
              "is the loss, instance norm and the other small layers, and the workers waiting for each other)\n");
  std::printf("%8s %-12s", "T", "model");
  for (const profile::Part part : profile::kAllParts) std::printf(" %16s", profile::name(part));
  std::printf(" %16s %12s\n", "the rest", "worker ms");
  for (const bench::TrainBenchRow& r : rows) {
    std::printf("%8d %-12s", r.seq_len, std::string(to_string(r.kind)).c_str());
    double counted = 0;
    for (const double seconds : r.part_seconds) {
      std::printf(" %15.1f%%", 100.0 * seconds / r.worker_seconds);
      counted += seconds;
    }
    std::printf(" %15.1f%% %12.1f\n", 100.0 * (1.0 - counted / r.worker_seconds), 1e3 * r.worker_seconds);
  }
}

int bench_train(TrainOptions& o) {
  bench::TrainBenchOptions& options = o.bench;
  validate_architecture(options.model);
  options.kinds = model_kinds(o.model);
  const ComputeDevice device = choose_device_for(o.device, options.kinds);
  if (device == ComputeDevice::cuda) {
    options.engine = gpu::make_forecast_engine;
    std::erase_if(options.kinds, [](ModelKind kind) { return !cpu_only_reason(kind).empty(); });
  }
  options.seq_lens = o.seq_lens;
  std::printf("training step, batch %d, d_model %d, heads %d, layers %d, d_ff %d, horizon %d, %d channels\n",
              options.batch, options.model.d_model, options.model.heads, options.model.layers, options.model.d_ff,
              options.model.horizon, options.model.channels);
  std::printf("device: %s\n", describe_device(device).c_str());
  for (const ModelKind kind : model_kinds(o.model))
    if (device == ComputeDevice::cuda && !cpu_only_reason(kind).empty())
      std::printf("not timed: %s (%s)\n", std::string(to_string(kind)).c_str(), cpu_only_reason(kind).c_str());
  const bool cpu = device != ComputeDevice::cuda;
  if (cpu)
    std::printf("GFLOP/s: the step's operations over its time; of SGEMM: its share of Eigen's SGEMM rate (in\n"
                "brackets) on as many workers at the step's shapes, measured before the row\n");
  std::printf("%8s %-12s %-6s %12s %10s %18s", "T", "model", "device", "samples/s", "ms/step", "cost/sample vs T0");
  std::printf(cpu ? " %9s %17s\n" : "\n", "GFLOP/s", "of SGEMM");
  double base[std::size(kModelKinds)] = {};
  const std::vector<bench::TrainBenchRow> rows = bench::run_train_bench(options, [&](const bench::TrainBenchRow& r) {
    const std::size_t k = std::size_t(r.kind);
    const double per_sample = 1.0 / r.samples_per_second;
    if (base[k] == 0) base[k] = per_sample;
    // The engine names its device in full ("cuda: <GPU>"); the header line already gives that.
    const std::string device_kind = r.device.substr(0, r.device.find(':'));
    std::printf("%8d %-12s %-6s %12.1f %10.1f %17.2fx", r.seq_len, std::string(to_string(r.kind)).c_str(),
                device_kind.c_str(), r.samples_per_second, 1e3 * r.seconds_per_step, per_sample / base[k]);
    if (cpu) std::printf(" %9.1f %6.0f%% (%7.1f)", r.gflops, 100.0 * r.sgemm_share(), r.sgemm_gflops);
    std::printf("\n");
    std::fflush(stdout);
  });
  const bool profiled = o.bench.profile && cpu;
  if (profiled) print_train_profile(rows);
  if (!o.out.empty()) write_file_atomically(o.out, train_bench_csv(rows, profiled));
  return 0;
}

const char* const kStreamText = R"(tokens one at a time through Aaren, a KV-cached Transformer and a linear Transformer: latency, cumulative time, state memory (the paper's Figure 5)

Streams N tokens, one step() at a time, through an Aaren model, a KV-cached
Transformer and a linear Transformer of the same size (--model picks them) and
records, at sampled token counts, each model's per-token latency, cumulative
time, state bytes (Aaren's (m, u, w); the KV cache; the linear Transformer's
(S, z) per head), bytes read per step (the weights a step uses and the state)
and the process's resident memory. The CSV has one row per sample, the linear
Transformer's columns last. On the CPU it first measures one thread's read
bandwidth (a sum over a 256 MiB buffer, median of 5 passes): out of the caches a
step cannot be faster than reading its bytes, so for each model it prints the
bytes read per step at the largest N and the rate achieved as a share of that
bandwidth. The last lines printed are the fitted growth (log-log slopes over the
upper half of N of per-token latency and of cumulative time; state bytes per
token) and each model's cumulative time at N against Aaren's.
--chart draws state memory and cumulative time of the models streamed side by
side with a caption (the paper's Figure 5) as PNG, SVG or PDF; it needs no
display.
--device cuda streams on the GPU: each step uploads one input row, runs every
layer there and copies the hidden state back, and its time includes all of
that; the parallel forward is then not timed (it runs on the CPU only), nor is
the linear Transformer (the GPU model does not run it yet).
)";

struct StreamOptions {
  bench::StreamBenchOptions bench;
  std::string out, chart, device = "cpu", model = "all";
  bool no_parallel = false;
};

int bench_stream(StreamOptions& o) {
  bench::StreamBenchOptions& options = o.bench;
  const std::string& out = o.out;
  const std::string& chart = o.chart;
  validate_architecture(options.model);
  options.kinds = model_kinds(o.model);
  const ComputeDevice device = choose_device_for(o.device, options.kinds);
  if (device == ComputeDevice::cuda) options.stepper = bench::device_stream_stepper<gpu::DeviceForecastStream>();
  options.parallel = !o.no_parallel;
  if (!chart.empty() && !is_stream_figure_path(chart))
    throw UsageError("--chart: '" + chart + "' must end in .png, .svg or .pdf");
  if (!chart.empty() && !stream_figures_available())
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
  const std::vector<ModelKind> shown = bench::streamed_kinds(options);
  long next_report = 1024;
  const auto result = bench::run_stream_bench(options, [&](const bench::StreamSample& s) {
    if (s.tokens < next_report && s.tokens != options.tokens) return;
    while (next_report <= s.tokens) next_report *= 2;
    std::printf("%8ld tokens", s.tokens);
    for (std::size_t m = 0; m < shown.size(); ++m) {
      const int k = bench::stream_model_index(shown[m]);
      std::printf("%s %s %.2f us/token %.3f s %.0f B", m == 0 ? " " : " |", std::string(to_string(shown[m])).c_str(),
                  1e6 * s.latency_seconds[k], s.cumulative_seconds[k], s.state_bytes[k]);
    }
    std::printf("\n");
    std::fflush(stdout);
  });
  write_file_atomically(out, bench::stream_csv(result));
  if (result.samples.empty()) throw std::runtime_error("nothing was measured");
  if (!result.left_out_note.empty()) std::printf("%s\n", result.left_out_note.c_str());
  const auto& first = result.samples.front();
  const auto& last = result.samples.back();
  for (const ModelKind kind : result.kinds)
    if (const double seconds = result.parallel_seconds[bench::stream_model_index(kind)]; seconds >= 0)
      std::printf("parallel forward at N = %ld: %s %.3f s\n", last.tokens, std::string(to_string(kind)).c_str(),
                  seconds);
  if (!result.parallel_note.empty()) std::printf("%s\n", result.parallel_note.c_str());
  std::printf("wrote %zu samples to %s\n", result.samples.size(), out.c_str());
  if (!chart.empty()) {
    write_stream_figure(chart, options, result);
    std::printf("wrote the memory and cumulative-time charts (the paper's Figure 5) to %s\n", chart.c_str());
  }
  for (const ModelKind kind : result.kinds) {
    const int k = bench::stream_model_index(kind);
    const std::string name = std::string(to_string(kind)) + ":";
    std::printf("%-12s state %.0f B at token %ld, %.0f B at token %ld\n", name.c_str(), first.state_bytes[k],
                first.tokens, last.state_bytes[k], last.tokens);
  }
  for (const ModelKind kind : result.kinds) {
    const bench::StepBound bound = bench::step_bound(result, bench::stream_model_index(kind));
    const std::string name = std::string(to_string(kind)) + ":";
    std::printf("%-12s at N = %ld a step reads %.3f MB: %.1f GB/s", name.c_str(), last.tokens, bound.bytes_read / 1e6,
                bound.bytes_per_second / 1e9);
    if (result.read_bandwidth > 0)
      std::printf(" = %.0f%% of one thread's read bandwidth", 100 * bound.fraction_of_bandwidth);
    std::printf("\n");
  }
  for (const ModelKind kind : result.kinds) {
    const bench::GrowthFit& fit = result.fit[bench::stream_model_index(kind)];
    const std::string name = std::string(to_string(kind)) + ":";
    std::printf("%-12s per-token exponent %.3f, time exponent %.3f, memory slope %.1f bytes/token", name.c_str(),
                fit.latency_exponent, fit.time_exponent, fit.memory_bytes_per_token);
    if (kind == ModelKind::transformer)
      std::printf(" (2 x layers x d_model x 4 = %d)", 2 * options.model.layers * options.model.d_model * 4);
    std::printf("\n");
  }
  const int k_aaren = bench::stream_model_index(ModelKind::aaren);
  if (bench::streamed(result, ModelKind::aaren) && last.cumulative_seconds[k_aaren] > 0)
    for (const ModelKind kind : result.kinds)
      if (kind != ModelKind::aaren)
        std::printf("cumulative time at N = %ld: %s / aaren = %.1f\n", last.tokens, std::string(to_string(kind)).c_str(),
                    last.cumulative_seconds[bench::stream_model_index(kind)] / last.cumulative_seconds[k_aaren]);
  return 0;
}

void add_bench_attention(CommandLine& cli, CLI::App* bench) {
  auto o = std::make_shared<AttentionOptions>();
  CLI::App* app = cli.add_command(bench, "attention", kAttentionText, [o] { return bench_attention(*o); });
  o->app = app;
  bench::AttentionBenchOptions& c = o->cpu;
  gpu::AttentionBenchOptions& g = o->gpu;
  add_device_option(app, o->device, "cuda: the scan on the GPU; auto: the GPU where one can be used, else the CPU");
  add_whole(app, "--min-log2", c.min_log2_n, 0, 26, "L", "CPU: the smallest N is 2^L")->group("CPU");
  add_whole(app, "--max-log2", c.max_log2_n, 0, 26, "L", "CPU: the largest N is 2^L")->group("CPU");
  add_whole(app, "--naive-max", c.naive_max_n, 0, 1L << 26, "N", "CPU: the O(N^2) reference up to N tokens")
      ->group("CPU");
  add_whole(app, "--batch", g.batch, 1, 1 << 20, "B", "CUDA: sequences of a batch")->group("CUDA");
  add_whole(app, "--heads", g.heads, 1, 4096, "H", "CUDA: heads of each sequence")->group("CUDA");
  add_whole(app, "--tokens", g.n, 1, 1 << 28, "N", "CUDA: tokens of each sequence")->group("CUDA");
  add_whole(app, "--dim", c.d, 1, 4096, "D", "key and value dimension (at most 256 on CUDA)")->group("Both");
  add_whole(app, "--repeats", c.repeats, 1, 1000, "R",
            "runs whose median is reported (default " + std::to_string(c.repeats) + "; " + std::to_string(g.repeats) +
                " on CUDA)")
      ->group("Both");
  add_whole(app, "--seed", c.seed, 0, 1L << 31, "S", "")->group("Both");
}

void add_bench_train(CommandLine& cli, CLI::App* bench) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* app = cli.add_command(bench, "train", kTrainText, [o] { return bench_train(*o); });
  bench::TrainBenchOptions& b = o->bench;
  add_whole_list(app, "--seq-lens", o->seq_lens, 1, 1 << 16, "T,T,...", "the look-backs to time")->group(kOptionsGroup);
  add_whole(app, "--batch", b.batch, 1, 4096, "B", "")->group(kOptionsGroup);
  add_whole(app, "--steps", b.steps, 1, 100000, "N", "training steps timed per repeat")->group(kOptionsGroup);
  add_whole(app, "--repeats", b.repeats, 1, 1000, "R", "")->group(kOptionsGroup);
  add_whole(app, "--threads", b.threads, 0, 1024, "N", "worker threads; 0: all cores")->group(kOptionsGroup);
  add_model_choice(app, o->model, true);
  b.model.channels = 7;
  add_architecture_options(app, b.model, {.seq_len = false});
  add_whole(app, "--channels", b.model.channels, 1, 4096, "C", "input channels")->group(kModelGroup);
  add_device_option(app, o->device, "cuda: every step on the GPU; auto: the GPU where one can be used, else the CPU");
  add_text(app, "--out", o->out, "FILE.csv", "write every row as CSV")->group(kOptionsGroup);
  app->add_flag("--profile", b.profile,
                "after the table, where a step's time goes: matrix products, attention, LayerNorm, GELU, the "
                "optimizer (with the gradient's norm and clipping), copies (windows, the gradients' zeroing and "
                "summing) and the rest: the loss, threads waiting (CPU only; a run of its own per row)")
      ->group(kOptionsGroup);
}

void add_bench_stream(CommandLine& cli, CLI::App* bench) {
  auto o = std::make_shared<StreamOptions>();
  CLI::App* app = cli.add_command(bench, "stream", kStreamText, [o] { return bench_stream(*o); });
  bench::StreamBenchOptions& b = o->bench;
  add_whole(app, "--tokens", b.tokens, 1, 1L << 24, "N", "tokens streamed")->required()->group(kOptionsGroup);
  add_text(app, "--out", o->out, "stream.csv", "the samples")->required()->group(kOptionsGroup);
  add_text(app, "--chart", o->chart, "FILE.png|svg|pdf", "draw Figure 5 there")->group(kOptionsGroup);
  add_whole(app, "--repeat", b.repeats, 1, 100, "R", "")->group(kOptionsGroup);
  add_whole(app, "--samples", b.samples, 2, 100000, "N", "sampled token counts")->group(kOptionsGroup);
  add_whole(app, "--seed", b.seed, 0, 4294967295L, "S", "")->group(kOptionsGroup);
  add_switch(app, "--no-parallel", o->no_parallel, "skip timing the parallel forward")->group(kOptionsGroup);
  add_model_choice(app, o->model, true);
  b.model.d_model = 128;
  b.model.layers = 4;
  b.model.d_ff = 512;
  add_architecture_options(app, b.model, {.seq_len = false, .horizon = false});
  add_device_option(app, o->device, "cuda: stream on the GPU; auto: the GPU where one can be used, else the CPU");
}

const char* const kActText = R"(what one step of a Decision Transformer acting costs, by act mode

Times a Decision Transformer of each --model acting for an episode of --steps
steps on random weights and inputs (one state of --state-dim values and one
action a step): as a stream (each token taken once, the state carried over the
whole episode) and with a window of K steps for every K of --contexts (the last
K steps re-run at every step). Prints the median time of a step over the first
and the last 100 steps and the bytes kept after the first and the last step.
--out writes every step's time.)";

struct ActOptions {
  bench::ActBenchOptions bench;
  std::string model = "all", out;
};

int bench_act(ActOptions& o) {
  o.bench.kinds = model_kinds(o.model);
  validate_architecture(o.bench.model.backbone);
  const std::vector<bench::ActBenchRow> rows = bench::bench_decision_act(o.bench);
  std::printf("%-12s %-7s %5s %14s %14s %7s %12s %12s\n", "model", "mode", "K", "first us/step", "last us/step",
              "last/1st", "bytes first", "bytes last");
  std::string csv = "model,mode,context,step,seconds\n";
  for (const bench::ActBenchRow& r : rows) {
    const std::string name(to_string(r.kind)), mode(to_string(r.mode));
    std::printf("%-12s %-7s %5s %14.1f %14.1f %7.2f %12zu %12zu\n", name.c_str(), mode.c_str(),
                r.context > 0 ? std::to_string(r.context).c_str() : "-", r.first_seconds * 1e6, r.last_seconds * 1e6,
                r.last_seconds / r.first_seconds, r.first_bytes, r.last_bytes);
    for (std::size_t t = 0; t < r.step_seconds.size(); ++t)
      csv += name + "," + mode + "," + std::to_string(r.context) + "," + std::to_string(t) + "," +
             format_number(r.step_seconds[t]) + "\n";
  }
  if (!o.out.empty()) write_file_atomically(o.out, csv);
  return 0;
}

void add_bench_act(CommandLine& cli, CLI::App* bench) {
  auto o = std::make_shared<ActOptions>();
  CLI::App* app = cli.add_command(bench, "act", kActText, [o] { return bench_act(*o); });
  bench::ActBenchOptions& b = o->bench;
  b.model = rl::decision_default_model();
  b.model.state_dim = 4;
  add_whole(app, "--steps", b.steps, 200, 1L << 20, "N", "the episode's length")->group(kOptionsGroup);
  add_whole_list(app, "--contexts", b.contexts, 1, 1 << 14, "K,K,...", "the windows to time")->group(kOptionsGroup);
  add_whole(app, "--state-dim", b.model.state_dim, 1, 4096, "S", "state values a step")->group(kOptionsGroup);
  add_whole(app, "--seed", b.seed, 0, 4294967295L, "S", "")->group(kOptionsGroup);
  add_text(app, "--out", o->out, "FILE.csv", "every step's time")->group(kOptionsGroup);
  add_model_choice(app, o->model, true);
  add_architecture_options(app, b.model.backbone, {.seq_len = false, .horizon = false});
}

}  // namespace

void add_bench_commands(CommandLine& cli) {
  CLI::App* bench = cli.add_command(cli.root(), "bench", kBenchText);
  add_bench_attention(cli, bench);
  add_bench_train(cli, bench);
  add_bench_stream(cli, bench);
  add_bench_act(cli, bench);
}

}  // namespace aaren::cli
