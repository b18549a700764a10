#pragma once
// --device cpu|cuda|auto for the commands that can run on the GPU.
#include <string>

namespace aaren::cli {

enum class ComputeDevice { cpu, cuda };

// "cpu", "cuda", or "auto" (cuda where a device can be used, else cpu). Another name is a
// UsageError; "cuda" where none can be used is a std::runtime_error that says why (no CUDA at build
// time, no driver, no device).
ComputeDevice choose_device(const std::string& name);

}  // namespace aaren::cli
