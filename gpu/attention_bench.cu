#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bench/timing.hpp"
#include "gpu/attention_bench.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/prefix_attention.hpp"

namespace aaren::gpu {

namespace {

// A stateless integer hash (Wellons' lowbias32): the inputs are drawn on the device, in
// milliseconds, instead of generating and uploading gigabytes from the host.
__device__ std::uint32_t mix_bits(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Uniform on [-sqrt 3, sqrt 3): unit variance, like the CPU benchmark's normal draws, so the
// scores have the same spread.
__global__ void fill_uniform_kernel(float* x, std::size_t count, std::uint32_t seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const std::uint32_t bits = mix_bits(std::uint32_t(i) ^ mix_bits(std::uint32_t(i >> 32) ^ mix_bits(seed)));
    x[i] = (float(bits >> 8) * (2.0f / 16777216.0f) - 1.0f) * 1.7320508f;
  }
}

void fill_uniform(float* x, std::size_t count, std::uint32_t seed) {
  fill_uniform_kernel<<<1024, 256>>>(x, count, seed);
  check_launch("fill_uniform_kernel");
}

// CUDA events around queued work: device time, without the launch overhead seen from the host.
class EventTimer {
 public:
  EventTimer() {
    AAREN_CUDA_CHECK(cudaEventCreate(&start_));
    const cudaError_t status = cudaEventCreate(&stop_);
    if (status != cudaSuccess) cudaEventDestroy(start_);
    check_cuda(status, "cudaEventCreate(&stop_)");
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  // Median seconds of one call of `work` over `repeats` timed calls, after one untimed call.
  template <class Work>
  double median_seconds(Work&& work, int repeats) {
    work();
    synchronize();
    std::vector<double> runs;
    for (int r = 0; r < repeats; ++r) {
      AAREN_CUDA_CHECK(cudaEventRecord(start_));
      work();
      AAREN_CUDA_CHECK(cudaEventRecord(stop_));
      AAREN_CUDA_CHECK(cudaEventSynchronize(stop_));
      float milliseconds = 0;
      AAREN_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
      runs.push_back(1e-3 * milliseconds);
    }
    return bench::median(runs);
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

std::string gibibytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1u << 30));
  return text;
}

}  // namespace

AttentionBenchResult run_attention_bench(const AttentionBenchOptions& options) {
  const DeviceInfo info = query_device();
  if (!info.available) throw std::runtime_error("CUDA unavailable: " + info.reason);
  if (options.batch < 1 || options.heads < 1 || options.n < 1 || options.d < 1 || options.repeats < 1)
    throw std::invalid_argument("the GPU attention benchmark needs batch, heads, tokens, dim and repeats of at least 1");

  const std::size_t rows = std::size_t(options.batch) * std::size_t(options.heads);
  const std::size_t count = rows * std::size_t(options.n) * std::size_t(options.d);  // floats in each of K, V, O
  std::size_t free_bytes = 0, total_bytes = 0;
  AAREN_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double needed_bytes = double(sizeof(float)) * (3.0 * double(count) + double(rows) * options.d);
  if (needed_bytes > double(free_bytes))
    throw std::runtime_error("the benchmark needs " + gibibytes(needed_bytes) + " of device memory and " +
                             info.name + " has " + gibibytes(double(free_bytes)) +
                             " free: lower the batch, heads or tokens");

  // K, V and O in one allocation, so the reference copy can move the same bytes within it.
  DeviceBuffer kvo(3 * count);
  DeviceBuffer q(rows * std::size_t(options.d));
  float* k = kvo.data();
  float* v = k + count;
  float* o = v + count;
  fill_uniform(k, 2 * count, options.seed);
  fill_uniform(q.data(), q.size(), options.seed + 1);

  AttentionBenchResult result;
  result.device = describe(info);
  result.forward_bytes = double(sizeof(float)) * 3.0 * double(count);
  const float scale = 1.0f / std::sqrt(float(options.d));
  EventTimer timer;
  result.forward_seconds = timer.median_seconds(
      [&] { prefix_attention_forward(o, nullptr, q.data(), k, v, options.batch, options.n, options.heads, options.d, scale); },
      options.repeats);

  // The first half of the allocation onto the second: reads and writes together as many bytes
  // as the scan reads and writes (it overwrites V and O, which are no longer needed).
  const std::size_t half = 3 * count / 2;
  result.copy_bytes = double(sizeof(float)) * 2.0 * double(half);
  result.copy_seconds = timer.median_seconds(
      [&] {
        AAREN_CUDA_CHECK(cudaMemcpy(kvo.data() + (3 * count - half), kvo.data(), half * sizeof(float),
                                    cudaMemcpyDeviceToDevice));
      },
      options.repeats);
  return result;
}

}  // namespace aaren::gpu
