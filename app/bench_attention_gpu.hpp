#pragma once
// `aaren bench attention --device cuda`: the GPU benchmark run and reported.
#include "gpu/attention_bench.hpp"

namespace aaren::cli {

int bench_attention_on_gpu(const gpu::AttentionBenchOptions& options);

}  // namespace aaren::cli
