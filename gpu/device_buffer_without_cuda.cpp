// gpu/device_buffer.hpp in a build without a CUDA compiler: no buffer can be made.
#include <utility>

#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"

namespace aaren::gpu {

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
void DeviceBuffer::upload(const float*, std::size_t, std::size_t) { throw_unavailable(); }
void DeviceBuffer::download(float*, std::size_t, std::size_t) const { throw_unavailable(); }
void DeviceBuffer::zero() { throw_unavailable(); }
void DeviceBuffer::fill_nan() { throw_unavailable(); }
void synchronize() { throw_unavailable(); }
void fail_next_allocation_for_testing() {}

}  // namespace aaren::gpu
