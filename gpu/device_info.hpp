#pragma once
// What the CUDA backend can offer on this machine. Plain C++: callable without nvcc.
#include <cstddef>
#include <string>

namespace aaren::gpu {

struct DeviceInfo {
  bool available = false;
  std::string reason;  // why not, when unavailable: no CUDA at build time, no driver, no device
  std::string name;
  std::size_t total_memory_bytes = 0;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int device_count = 0;
  int driver_version = 0;   // e.g. 13000 for 13.0
  int runtime_version = 0;
};

bool built_with_cuda();
DeviceInfo query_device();
std::string describe(const DeviceInfo& info);  // one line for --version, menus and logs
// What every entry point of a build without CUDA throws: "CUDA unavailable: <reason>".
[[noreturn]] void throw_unavailable();

}  // namespace aaren::gpu
