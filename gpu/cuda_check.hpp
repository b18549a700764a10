#pragma once
// Every CUDA runtime call of the backend goes through AAREN_CUDA_CHECK, which turns a failure into
// a std::runtime_error naming the call and CUDA's own message. For .cu files only: the public
// headers of gpu/ stay plain C++.
//
// A failed call also sets the thread's last error, which the next check_launch would read and
// blame on a correct launch (an out-of-memory cudaMalloc, then a retry with a smaller batch that
// fails with the same "out of memory"). So the error is cleared before it is thrown. A fault
// inside a kernel is sticky and cannot be cleared: every later call reports it, as it should.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace aaren::gpu {

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(std::string("CUDA error in ") + call + ": " + cudaGetErrorString(status));
  }
}

// A launch fails at once only for a bad configuration; a fault inside the kernel surfaces at the next
// synchronizing call (gpu::synchronize).
inline void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), kernel);
}

}  // namespace aaren::gpu

#define AAREN_CUDA_CHECK(call) ::aaren::gpu::check_cuda((call), #call)
