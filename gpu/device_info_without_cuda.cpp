#include "gpu/device_info.hpp"

namespace aaren::gpu {

bool built_with_cuda() { return false; }

std::size_t free_device_memory() { return 0; }

DeviceInfo query_device() {
  DeviceInfo info;
  info.reason = "this build has no CUDA backend (" AAREN_NO_CUDA_REASON ")";
  return info;
}

}  // namespace aaren::gpu
