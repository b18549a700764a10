#pragma once
// Float buffers in device memory, for the callers of the CUDA kernels (gpu/prefix_attention.hpp).
// Plain C++: callable without nvcc. Every failure is a std::runtime_error naming the CUDA call.
#include <cstddef>

namespace aaren::gpu {

// Owns `size` floats allocated with cudaMalloc (never managed memory: the kernels must not page).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t size);
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  ~DeviceBuffer();

  float* data() { return data_; }
  const float* data() const { return data_; }
  std::size_t size() const { return size_; }

  // Copy exactly size() floats from or to host memory; the host memory may be reused on return.
  void upload(const float* host);
  void download(float* host) const;
  // Every element becomes NaN (all bits set), so an element a kernel should write but does not
  // shows up in any comparison.
  void fill_nan();

 private:
  float* data_ = nullptr;
  std::size_t size_ = 0;
};

// Waits for all work queued on the device; a fault in an earlier kernel is thrown here.
void synchronize();

}  // namespace aaren::gpu
