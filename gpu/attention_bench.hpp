#pragma once
// `aaren bench attention --device cuda`: the forward scan over every head of a batch in one launch,
// timed against a device-to-device copy that moves the same bytes. Plain C++: callable without nvcc.
#include <string>

namespace aaren::gpu {

struct AttentionBenchOptions {
  // B H = 1024 sequences of 16384 tokens, d = 64: 12 GiB of K, V and O, far beyond any cache, and
  // one block per sequence is about one wave of resident blocks on an H100.
  int batch = 64;
  int heads = 16;
  int n = 16384;
  int d = 64;
  int repeats = 20;
  unsigned seed = 1;
};

struct AttentionBenchResult {
  std::string device;           // gpu::describe of the device that ran it
  double forward_seconds = 0;   // median of one launch of gpu::prefix_attention_forward
  double forward_bytes = 0;     // K and V read, O written
  double copy_seconds = 0;      // median of one cudaMemcpy, device to device
  double copy_bytes = 0;        // read plus written by the copy: forward_bytes, to within one float
};

// Throws std::runtime_error when no device can be used or the buffers do not fit in its memory.
AttentionBenchResult run_attention_bench(const AttentionBenchOptions& options);

}  // namespace aaren::gpu
