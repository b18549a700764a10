#pragma once
// What the CUDA backend can offer on this machine. Plain C++: callable without nvcc.
#include <cstddef>
#include <string>

namespace aaren::gpu {

struct DeviceInfo {
  bool available = false;
  std::string reason;  // why not, when unavailable: no CUDA at build time, driver too old, no driver, no device
  std::string name;
  std::size_t total_memory_bytes = 0;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int device_count = 0;
  int driver_version = 0;   // the newest CUDA the driver supports, e.g. 13000 for 13.0; 0 without a driver
  int runtime_version = 0;  // the CUDA runtime this build links, e.g. 13000; 0 in a build without CUDA
  bool driver_too_old = false;  // the driver cannot run this runtime (reason and driver_fix say more)
};

bool built_with_cuda();
DeviceInfo query_device();
std::string describe(const DeviceInfo& info);  // one line for --version, menus and logs

// "13.0" for 13000.
std::string cuda_version_text(int version);
// CUDA's minor-version compatibility: a runtime 13.x runs on any driver that supports 13.0, so the
// driver must support at least the runtime's major version.
int required_driver_version(int runtime_version);
// False where either number is unknown (0).
bool driver_is_too_old(int driver_version, int runtime_version);
// The reason a too-old driver gives, with both versions: "the NVIDIA driver supports CUDA 12.4, but
// this build's CUDA runtime 13.0 needs a driver for CUDA 13.0 or newer".
std::string old_driver_reason(int driver_version, int runtime_version);
// What to do about it, for `aaren device`: the forward-compatibility package, or a build with the
// toolkit that matches the driver.
std::string driver_fix(int driver_version, int runtime_version);

// The device memory free now (cudaMemGetInfo), for a check before a large allocation; 0 where no
// device can be used.
std::size_t free_device_memory();

// What every entry point of a build without CUDA throws: "CUDA unavailable: <reason>".
[[noreturn]] void throw_unavailable();

}  // namespace aaren::gpu
