#include "app/device_choice.hpp"

#include <stdexcept>

#include "app/cli_args.hpp"
#include "gpu/device_info.hpp"

namespace aaren::cli {

ComputeDevice choose_device(const std::string& name) {
  if (name == "cpu") return ComputeDevice::cpu;
  if (name != "cuda" && name != "auto") throw UsageError("--device must be cpu, cuda or auto, got '" + name + "'");
  const gpu::DeviceInfo info = gpu::query_device();
  if (info.available) return ComputeDevice::cuda;
  if (name == "auto") return ComputeDevice::cpu;
  throw std::runtime_error("--device cuda: " + info.reason);
}

}  // namespace aaren::cli
