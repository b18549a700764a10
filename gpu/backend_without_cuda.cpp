// The CUDA backend's entry points in a build without a CUDA compiler: each says why no GPU can be
// used, so callers need no build-dependent code (they ask gpu::query_device first).
#include <stdexcept>
#include <utility>

#include "gpu/attention_bench.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/prefix_attention.hpp"

namespace aaren::gpu {

namespace {

[[noreturn]] void throw_unavailable() { throw std::runtime_error("CUDA unavailable: " + query_device().reason); }

}  // namespace

DeviceBuffer::DeviceBuffer(std::size_t size) : size_(size) { throw_unavailable(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  data_ = std::exchange(other.data_, nullptr);
  size_ = std::exchange(other.size_, 0);
  return *this;
}

DeviceBuffer::~DeviceBuffer() = default;

void DeviceBuffer::upload(const float*) { throw_unavailable(); }
void DeviceBuffer::download(float*) const { throw_unavailable(); }
void DeviceBuffer::fill_nan() { throw_unavailable(); }
void synchronize() { throw_unavailable(); }

void prefix_attention_forward(float*, float*, const float*, const float*, const float*, int, int, int, int, float) {
  throw_unavailable();
}

void prefix_attention_backward(float*, float*, float*, const float*, const float*, const float*, const float*,
                               const float*, const float*, int, int, int, int, float) {
  throw_unavailable();
}

AttentionBenchResult run_attention_bench(const AttentionBenchOptions&) { throw_unavailable(); }

}  // namespace aaren::gpu
