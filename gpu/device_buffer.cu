#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"

namespace aaren::gpu {

namespace {

thread_local bool fail_next_allocation = false;

// 2^60 bytes: more than any device has, and far below what size_t can count.
constexpr std::size_t kImpossibleBytes = std::size_t(1) << 60;

}  // namespace

void fail_next_allocation_for_testing() { fail_next_allocation = true; }

DeviceBuffer::DeviceBuffer(std::size_t size) : size_(size) {
  if (size == 0) return;
  const std::size_t bytes = std::exchange(fail_next_allocation, false) ? kImpossibleBytes : size * sizeof(float);
  AAREN_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    DeviceBuffer old(std::move(*this));
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

// A destructor cannot throw; cudaFree fails only when the context is already broken, and that
// failure has been reported by the call that broke it.
DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}

void DeviceBuffer::upload(const float* host) {
  if (size_ > 0) AAREN_CUDA_CHECK(cudaMemcpy(data_, host, size_ * sizeof(float), cudaMemcpyHostToDevice));
}

void DeviceBuffer::download(float* host) const {
  if (size_ > 0) AAREN_CUDA_CHECK(cudaMemcpy(host, data_, size_ * sizeof(float), cudaMemcpyDeviceToHost));
}

namespace {

void check_range(std::size_t count, std::size_t offset, std::size_t size) {
  if (offset > size || count > size - offset)
    throw std::invalid_argument("elements [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                                ") do not lie inside a device buffer of " + std::to_string(size) + " floats");
}

}  // namespace

void DeviceBuffer::upload(const float* host, std::size_t count, std::size_t offset) {
  check_range(count, offset, size_);
  if (count > 0)
    AAREN_CUDA_CHECK(cudaMemcpy(data_ + offset, host, count * sizeof(float), cudaMemcpyHostToDevice));
}

void DeviceBuffer::download(float* host, std::size_t count, std::size_t offset) const {
  check_range(count, offset, size_);
  if (count > 0)
    AAREN_CUDA_CHECK(cudaMemcpy(host, data_ + offset, count * sizeof(float), cudaMemcpyDeviceToHost));
}

void DeviceBuffer::zero() {
  if (size_ > 0) AAREN_CUDA_CHECK(cudaMemsetAsync(data_, 0, size_ * sizeof(float), cudaStreamPerThread));
}

void DeviceBuffer::fill_nan() {
  if (size_ > 0) AAREN_CUDA_CHECK(cudaMemset(data_, 0xFF, size_ * sizeof(float)));
}

// The calling thread's stream only: another thread's work (training beside a streaming benchmark)
// is neither waited for nor timed.
void synchronize() { AAREN_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread)); }

}  // namespace aaren::gpu
