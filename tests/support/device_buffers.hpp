#pragma once
// Moving test data to and from the GPU (gpu/device_buffer.hpp). Outputs start as NaN, so an
// entry a kernel fails to write fails the comparison instead of passing with a stale value.
#include <cstddef>
#include <vector>

#include "gpu/device_buffer.hpp"

inline std::vector<float> downloaded(const aaren::gpu::DeviceBuffer& buffer) {
  std::vector<float> host(buffer.size());
  buffer.download(host.data());
  return host;
}

inline aaren::gpu::DeviceBuffer uploaded(const std::vector<float>& host) {
  aaren::gpu::DeviceBuffer buffer(host.size());
  buffer.upload(host.data());
  return buffer;
}

inline aaren::gpu::DeviceBuffer poisoned(std::size_t size) {
  aaren::gpu::DeviceBuffer buffer(size);
  buffer.fill_nan();
  return buffer;
}
