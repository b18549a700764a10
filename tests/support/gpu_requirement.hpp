#pragma once
// Whether a GPU suite runs, skips or fails. Without a usable device a suite skips (ctest shows it
// as "Not Run"), unless AAREN_REQUIRE_CUDA=1 says a GPU is expected: then the skip becomes a
// failure naming the reason (no CUDA build, driver too old with both versions, no device), so a
// machine that was meant to test the GPU cannot pass without running anything.
#include <QtTest>

#include <cstdlib>
#include <string>

#include "gpu/device_info.hpp"

enum class GpuSuiteVerdict { run, skip, fail };

struct GpuSuiteDecision {
  GpuSuiteVerdict verdict = GpuSuiteVerdict::run;
  std::string reason;  // empty when the suite runs
};

// AAREN_REQUIRE_CUDA's value: "1" requires a device; unset, empty or "0" does not. Anything else is
// taken as a requirement too, so a typo cannot turn the check off.
inline bool cuda_required(const char* value) {
  if (!value) return false;
  const std::string text(value);
  return !text.empty() && text != "0";
}

inline GpuSuiteDecision decide_gpu_suite(const aaren::gpu::DeviceInfo& info, bool required) {
  if (info.available) return {GpuSuiteVerdict::run, {}};
  if (!required) return {GpuSuiteVerdict::skip, "no CUDA device can be used: " + info.reason};
  return {GpuSuiteVerdict::fail, "AAREN_REQUIRE_CUDA=1, but no CUDA device can be used: " + info.reason};
}

inline GpuSuiteDecision decide_gpu_suite_here() {
  return decide_gpu_suite(aaren::gpu::query_device(), cuda_required(std::getenv("AAREN_REQUIRE_CUDA")));
}

// For a suite's initTestCase (QSKIP and QFAIL return from the calling test function).
#define AAREN_SKIP_OR_FAIL_WITHOUT_GPU()                                                          \
  do {                                                                                            \
    const GpuSuiteDecision gpu_decision_ = decide_gpu_suite_here();                               \
    if (gpu_decision_.verdict == GpuSuiteVerdict::fail) QFAIL(gpu_decision_.reason.c_str());      \
    if (gpu_decision_.verdict == GpuSuiteVerdict::skip) QSKIP(gpu_decision_.reason.c_str());      \
  } while (false)
