#pragma once
// What a gpu::Blas holds, for the .cu files that call cuBLAS, and the check every cuBLAS call goes
// through: a failure becomes a std::runtime_error naming the call and cuBLAS's own status.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "gpu/layers.hpp"

namespace aaren::gpu {

struct Blas::Handle {
  cublasHandle_t cublas = nullptr;
};

inline void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    cudaGetLastError();  // a failed launch inside cuBLAS must not be blamed on the next kernel (cuda_check.hpp)
    throw std::runtime_error(std::string("cuBLAS error in ") + call + ": " + cublasGetStatusString(status));
  }
}

}  // namespace aaren::gpu

#define AAREN_CUBLAS_CHECK(call) ::aaren::gpu::check_cublas((call), #call)
