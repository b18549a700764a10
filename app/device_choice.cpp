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

ComputeDevice choose_device_for(const std::string& name, const std::vector<ModelKind>& kinds) {
  const ComputeDevice device = choose_device(name);
  if (device == ComputeDevice::cpu) return device;
  for (const ModelKind kind : kinds)
    if (cpu_only_reason(kind).empty()) return device;
  require_cpu_device(name, kinds.empty() ? std::string("nothing to run") : cpu_only_reason(kinds.front()));
  return ComputeDevice::cpu;
}

std::string describe_device(ComputeDevice device) {
  if (device == ComputeDevice::cuda) return "cuda, " + gpu::describe(gpu::query_device());
  return "cpu, " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

}  // namespace aaren::cli
