// The cuBLAS handle of gpu/layers.hpp. Its work goes to the calling thread's default stream, like
// every kernel of the backend (gpu/layer_kernels.cuh), so a GEMM and the kernels around it run in
// the order they are queued. cuBLAS itself is not compiled for per-thread streams: without
// cublasSetStream its GEMMs would go to the legacy default stream, which every thread shares. cuBLAS's
// default math mode keeps single-precision GEMMs in FP32 (TF32 tensor cores are opt-in), so the
// linear layers match the CPU reference to float rounding.
#include <memory>

#include "gpu/blas_handle.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

Blas::Blas() : handle_(std::make_unique<Handle>()) {
  AAREN_CUBLAS_CHECK(cublasCreate(&handle_->cublas));
  // cudaStreamPerThread names the stream of whichever thread makes the call.
  const cublasStatus_t status = cublasSetStream(handle_->cublas, cudaStreamPerThread);
  if (status != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(handle_->cublas);
    check_cublas(status, "cublasSetStream(handle, cudaStreamPerThread)");
  }
}

// A destructor cannot throw; cublasDestroy fails only when the context is already broken, and that
// failure has been reported by the call that broke it.
Blas::~Blas() {
  if (handle_->cublas) cublasDestroy(handle_->cublas);
}

}  // namespace aaren::gpu
