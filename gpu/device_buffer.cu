#include <utility>

#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"

namespace aaren::gpu {

DeviceBuffer::DeviceBuffer(std::size_t size) : size_(size) {
  if (size > 0) AAREN_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), size * sizeof(float)));
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

void DeviceBuffer::fill_nan() {
  if (size_ > 0) AAREN_CUDA_CHECK(cudaMemset(data_, 0xFF, size_ * sizeof(float)));
}

void synchronize() { AAREN_CUDA_CHECK(cudaDeviceSynchronize()); }

}  // namespace aaren::gpu
