#pragma once
// Where training steps and benchmarks run: the CPU's workers, or a CUDA device through gpu/. The
// command line's --device and the app's Train and Efficiency pages choose one of these.
namespace aaren {

enum class ComputeDevice { cpu, cuda };

}  // namespace aaren
