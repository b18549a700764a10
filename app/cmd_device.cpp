// aaren device: what can run the computations on this machine.
#include <iostream>
#include <thread>

#include "app/commands.hpp"
#include "gpu/device_info.hpp"

namespace aaren::cli {

namespace {

const char* const kDeviceText = R"(the devices computations can run on (CPU, CUDA GPU)

Prints the devices the computations can run on, one line each:
  cpu: available, with its hardware threads
  cuda: available, with the GPU's name, compute capability, memory and driver,
        or unavailable, with the reason (no CUDA at build time, driver too old,
        no driver, no device)
then the CUDA versions: the newest CUDA the driver supports and the CUDA runtime
this build links, and, when the driver is too old for the runtime, how to fix it.
'--device cuda' of other commands needs the cuda line to say available.
)";

int print_devices() {
  std::cout << "cpu: available, " << std::thread::hardware_concurrency() << " hardware threads\n";
  const gpu::DeviceInfo info = gpu::query_device();
  if (info.available) {
    std::cout << "cuda: available, " << gpu::describe(info) << ", " << info.device_count
              << (info.device_count == 1 ? " device" : " devices (the first is used)") << "\n";
  } else {
    std::cout << "cuda: unavailable, " << info.reason << "\n";
  }
  std::cout << "cuda driver: "
            << (!gpu::built_with_cuda()      ? std::string("not asked (this build has no CUDA backend)")
                : info.driver_version > 0 ? "supports CUDA " + gpu::cuda_version_text(info.driver_version)
                                          : std::string("none found"))
            << "\n";
  std::cout << "cuda runtime: "
            << (gpu::built_with_cuda() ? gpu::cuda_version_text(info.runtime_version) + " (needs a driver for CUDA " +
                                             gpu::cuda_version_text(gpu::required_driver_version(info.runtime_version)) +
                                             " or newer)"
                                       : std::string("none (this build has no CUDA backend)"))
            << "\n";
  if (info.driver_too_old) std::cout << "fix: " << gpu::driver_fix(info.driver_version, info.runtime_version) << "\n";
  return 0;
}

}  // namespace

void add_device_command(CommandLine& cli) { cli.add_command(cli.root(), "device", kDeviceText, print_devices); }

}  // namespace aaren::cli
