#include "core/bench/memory_bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bench/timing.hpp"
#include "core/util/large_pages.hpp"

namespace aaren::bench {

namespace {

// Independent partial sums, so the loop vectorizes without reassociating float additions and the
// adds never wait on one another: the loads alone set the pace.
constexpr std::size_t kLanes = 64;

float sum_floats(const float* x, std::size_t n) {
  float lanes[kLanes] = {};
  const std::size_t whole = n / kLanes * kLanes;
  for (std::size_t i = 0; i < whole; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j) lanes[j] += x[i + j];
  float sum = 0;
  for (std::size_t i = whole; i < n; ++i) sum += x[i];
  for (float lane : lanes) sum += lane;
  return sum;
}

}  // namespace

ReadBandwidth measure_read_bandwidth(std::size_t buffer_bytes, int passes) {
  if (buffer_bytes < 4096)
    throw std::invalid_argument("read bandwidth: a buffer of " + std::to_string(buffer_bytes) +
                                " bytes fits in any cache; give at least 4096");
  if (passes < 1) throw std::invalid_argument("read bandwidth: needs at least one timed pass");
  // Memory of the kind the KV cache uses, so both are read at the same page size.
  const std::size_t n = buffer_bytes / sizeof(float);
  const LargePageBuffer<float> buffer = large_page_buffer<float>(n);
  std::fill(buffer.get(), buffer.get() + n, 1.0f);
  // Every sum is kept in a volatile, so no pass can be optimized away.
  float checksum = sum_floats(buffer.get(), n);
  std::vector<double> seconds;
  for (int p = 0; p < passes; ++p) {
    const auto start = std::chrono::steady_clock::now();
    checksum += sum_floats(buffer.get(), n);
    seconds.push_back(seconds_since(start));
  }
  volatile float kept = checksum;
  (void)kept;
  ReadBandwidth result;
  result.buffer_bytes = n * sizeof(float);
  result.passes = passes;
  result.bytes_per_second = double(result.buffer_bytes) / median(seconds);
  return result;
}

}  // namespace aaren::bench
