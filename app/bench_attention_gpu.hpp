#pragma once
// `aaren bench attention --device cuda`: the options of the GPU benchmark and its report.
#include "app/cli_args.hpp"

namespace aaren::cli {

// The value options only the GPU benchmark takes, for the CPU one to refuse.
inline const char* const kGpuAttentionBenchOptions[] = {"batch", "heads", "tokens"};

int bench_attention_on_gpu(const Args& args);

}  // namespace aaren::cli
