#include <cuda_runtime.h>

#include "gpu/device_info.hpp"

namespace aaren::gpu {

bool built_with_cuda() { return true; }

std::size_t free_device_memory() {
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return free;
}

// A driver older than the runtime makes every call that needs it fail (cudaGetDeviceCount with
// cudaErrorInsufficientDriver), so the versions are compared first and the reason says which
// versions were found and which are needed. Each failed call leaves CUDA's last error set; it is
// cleared here so that a later launch check does not report it.
DeviceInfo query_device() {
  DeviceInfo info;
  cudaRuntimeGetVersion(&info.runtime_version);
  const cudaError_t driver_status = cudaDriverGetVersion(&info.driver_version);
  if (driver_status != cudaSuccess || info.driver_version == 0) {
    cudaGetLastError();
    info.driver_version = 0;
    info.reason = "no NVIDIA driver is installed";
    return info;
  }
  if (driver_is_too_old(info.driver_version, info.runtime_version)) {
    info.driver_too_old = true;
    info.reason = old_driver_reason(info.driver_version, info.runtime_version);
    return info;
  }
  const cudaError_t count_status = cudaGetDeviceCount(&info.device_count);
  if (count_status != cudaSuccess || info.device_count == 0) {
    cudaGetLastError();
    info.reason = count_status == cudaSuccess ? std::string("no CUDA device was found")
                                              : std::string("cudaGetDeviceCount: ") +
                                                    cudaGetErrorString(count_status);
    info.device_count = 0;
    return info;
  }
  cudaDeviceProp props{};
  const cudaError_t props_status = cudaGetDeviceProperties(&props, 0);
  if (props_status != cudaSuccess) {
    cudaGetLastError();
    info.reason = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(props_status);
    return info;
  }
  info.available = true;
  info.name = props.name;
  info.total_memory_bytes = props.totalGlobalMem;
  info.compute_capability_major = props.major;
  info.compute_capability_minor = props.minor;
  return info;
}

}  // namespace aaren::gpu
