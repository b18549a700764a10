// aaren device: what can run the computations on this machine.
#include <iostream>
#include <thread>

#include "app/cli_args.hpp"
#include "app/commands.hpp"
#include "gpu/device_info.hpp"

namespace aaren::cli {

namespace {

const char* const kDeviceHelp = R"(usage: aaren device

Prints the devices the computations can run on, one line each:
  cpu: available, with its hardware threads
  cuda: available, with the GPU's name, compute capability, memory and driver,
        or unavailable, with the reason (no CUDA at build time, no driver, no device)
'--device cuda' of other commands needs the cuda line to say available.
)";

}  // namespace

int run_device(const Arguments& arguments) {
  const Args args(arguments, {}, {}, "aaren device");
  if (args.print_help(kDeviceHelp)) return 0;
  std::cout << "cpu: available, " << std::thread::hardware_concurrency() << " hardware threads\n";
  const gpu::DeviceInfo info = gpu::query_device();
  if (info.available) {
    std::cout << "cuda: available, " << gpu::describe(info) << ", CUDA runtime " << info.runtime_version / 1000 << '.'
              << (info.runtime_version % 1000) / 10 << ", " << info.device_count
              << (info.device_count == 1 ? " device" : " devices (the first is used)") << "\n";
  } else {
    std::cout << "cuda: unavailable, " << info.reason << "\n";
  }
  return 0;
}

}  // namespace aaren::cli
