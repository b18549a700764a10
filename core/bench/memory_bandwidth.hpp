#pragma once
// The rate at which one thread reads memory: the bound of a step that reads more than the caches
// hold, such as a KV-cached decode over a long stream (docs/DESIGN.md section 6). Measured by a
// sum over a buffer far larger than the last-level cache, the way a STREAM-style read loop does,
// in memory of the kind the KV cache uses (core/util/large_pages.hpp).
#include <cstddef>

namespace aaren::bench {

struct ReadBandwidth {
  double bytes_per_second = 0;  // median over the timed passes
  std::size_t buffer_bytes = 0;
  int passes = 0;
};

// Sums a float buffer of `buffer_bytes` with one thread, `passes` times after one untimed pass
// that brings its pages in. The default buffer is 256 MiB, eight times the largest last-level
// caches of common desktop CPUs, so almost every byte comes from memory; it takes a few hundred
// milliseconds. Throws std::invalid_argument for a buffer smaller than a page or no passes.
ReadBandwidth measure_read_bandwidth(std::size_t buffer_bytes = std::size_t(256) << 20, int passes = 5);

}  // namespace aaren::bench
