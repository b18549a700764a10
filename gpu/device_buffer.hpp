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
  // Copy `count` floats from or to host memory into or out of elements [offset, offset + count)
  // (a batch smaller than the buffer was sized for, one row of a table). std::invalid_argument when
  // the range does not lie inside the buffer.
  void upload(const float* host, std::size_t count, std::size_t offset = 0);
  void download(float* host, std::size_t count, std::size_t offset = 0) const;
  // Every element becomes 0, queued on the calling thread's stream behind the work before it:
  // gradients that accumulate start from it without the host waiting for the device.
  void zero();
  // Every element becomes NaN (all bits set), so an element a kernel should write but does not
  // shows up in any comparison.
  void fill_nan();

 private:
  float* data_ = nullptr;
  std::size_t size_ = 0;
};

// Waits for the work this thread queued (each thread has its own stream, gpu/layer_kernels.cuh);
// a fault in an earlier kernel is thrown here.
void synchronize();

// A test hook: the next DeviceBuffer this thread allocates asks cudaMalloc for more memory than any
// GPU has, so it fails as a real out-of-memory does, leaving CUDA's error state as one would.
// Later allocations are not affected.
void fail_next_allocation_for_testing();

}  // namespace aaren::gpu
