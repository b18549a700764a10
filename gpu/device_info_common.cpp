#include <sstream>
#include <stdexcept>

#include "gpu/device_info.hpp"

namespace aaren::gpu {

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + '.' + std::to_string((version % 1000) / 10);
}

int required_driver_version(int runtime_version) { return runtime_version / 1000 * 1000; }

bool driver_is_too_old(int driver_version, int runtime_version) {
  return driver_version > 0 && runtime_version > 0 && driver_version < required_driver_version(runtime_version);
}

std::string old_driver_reason(int driver_version, int runtime_version) {
  return "the NVIDIA driver supports CUDA " + cuda_version_text(driver_version) + ", but this build's CUDA runtime " +
         cuda_version_text(runtime_version) + " needs a driver for CUDA " +
         cuda_version_text(required_driver_version(runtime_version)) + " or newer";
}

std::string driver_fix(int driver_version, int runtime_version) {
  const std::string major = std::to_string(runtime_version / 1000);
  const std::string minor = std::to_string((runtime_version % 1000) / 10);
  return "install NVIDIA's forward-compatibility package cuda-compat-" + major + "-" + minor +
         " and run with LD_LIBRARY_PATH=/usr/local/cuda-" + major + "." + minor +
         "/compat (data-center GPUs), or build with the CUDA toolkit that matches the driver (CUDA " +
         cuda_version_text(driver_version) + " or older)";
}

std::string describe(const DeviceInfo& info) {
  if (!info.available) return "CUDA unavailable: " + info.reason;
  std::ostringstream out;
  out << info.name << " (compute " << info.compute_capability_major << '.' << info.compute_capability_minor
      << ", " << (info.total_memory_bytes >> 20) << " MiB, driver " << cuda_version_text(info.driver_version) << ")";
  return out.str();
}

void throw_unavailable() { throw std::runtime_error(describe(query_device())); }

}  // namespace aaren::gpu
