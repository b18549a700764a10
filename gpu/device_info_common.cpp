#include <sstream>
#include <stdexcept>

#include "gpu/device_info.hpp"

namespace aaren::gpu {

std::string describe(const DeviceInfo& info) {
  if (!info.available) return "CUDA unavailable: " + info.reason;
  std::ostringstream out;
  out << info.name << " (compute " << info.compute_capability_major << '.' << info.compute_capability_minor
      << ", " << (info.total_memory_bytes >> 20) << " MiB, driver " << info.driver_version / 1000 << '.'
      << (info.driver_version % 1000) / 10 << ")";
  return out.str();
}

void throw_unavailable() { throw std::runtime_error(describe(query_device())); }

}  // namespace aaren::gpu
