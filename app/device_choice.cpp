#include "app/device_choice.hpp"

#include <stdexcept>
#include <thread>

#include "app/cli_options.hpp"
#include "gpu/device_info.hpp"

namespace aaren::cli {

namespace {

void require_device_name(const std::string& name) {
  if (name != "cpu" && name != "cuda" && name != "auto")
    throw UsageError("--device must be cpu, cuda or auto, got '" + name + "'");
}

}  // namespace

ComputeDevice choose_device(const std::string& name) {
  require_device_name(name);
  if (name == "cpu") return ComputeDevice::cpu;
  const gpu::DeviceInfo info = gpu::query_device();
  if (info.available) return ComputeDevice::cuda;
  if (name == "auto") return ComputeDevice::cpu;
  throw std::runtime_error("--device cuda: " + info.reason);
}

void require_cpu_device(const std::string& name, const std::string& cpu_only_reason) {
  require_device_name(name);
  if (name == "cuda") throw UsageError("--device cuda: " + cpu_only_reason + "; use --device cpu or auto");
}

std::string describe_device(ComputeDevice device) {
  if (device == ComputeDevice::cuda) return "cuda, " + gpu::describe(gpu::query_device());
  return "cpu, " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

}  // namespace aaren::cli
