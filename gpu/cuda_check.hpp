#pragma once
// Every CUDA runtime call of the backend goes through AAREN_CUDA_CHECK, which turns a failure into
// a std::runtime_error naming the call and CUDA's own message. For .cu files only: the public
// headers of gpu/ stay plain C++.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace aaren::gpu {

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + call + ": " + cudaGetErrorString(status));
}

// A launch fails at once only for a bad configuration; a fault inside the kernel surfaces at the next
// synchronizing call (gpu::synchronize).
inline void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), kernel);
}

}  // namespace aaren::gpu

#define AAREN_CUDA_CHECK(call) ::aaren::gpu::check_cuda((call), #call)
