#pragma once
// --device cpu|cuda|auto for the commands that can run on the GPU.
#include <string>
#include <vector>

#include "core/train/cpu_only_models.hpp"
#include "core/util/compute_device.hpp"

namespace aaren::cli {

// "cpu", "cuda", or "auto" (cuda where a device can be used, else cpu). Another name is a
// UsageError; "cuda" where none can be used is a std::runtime_error that says why (no CUDA at build
// time, no driver, no device).
ComputeDevice choose_device(const std::string& name);

// For work that runs on the CPU only: "cpu" and "auto" choose it; "cuda" is a UsageError that
// says why (`cpu_only_reason`); another name too.
void require_cpu_device(const std::string& name, const std::string& cpu_only_reason);

// The device for timing `kinds` side by side (`aaren bench train|stream`): as choose_device, but a
// GPU only where one of them runs there; "auto" then falls back to the CPU, and "cuda" for models
// that all run on the CPU only is a UsageError with the first one's reason. The caller leaves out,
// with a note, the models the GPU does not run.
ComputeDevice choose_device_for(const std::string& name, const std::vector<ModelKind>& kinds);

// Where a command runs, in words: "cpu, 8 hardware threads" or "cuda, <the GPU>".
std::string describe_device(ComputeDevice device);

}  // namespace aaren::cli
