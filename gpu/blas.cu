// The cuBLAS handle of gpu/layers.hpp. Its work goes to the default stream, like every kernel of
// the backend, so a GEMM and the kernels around it run in the order they are queued. cuBLAS's
// default math mode keeps single-precision GEMMs in FP32 (TF32 tensor cores are opt-in), so the
// linear layers match the CPU reference to float rounding.
#include <memory>

#include "gpu/blas_handle.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

Blas::Blas() : handle_(std::make_unique<Handle>()) { AAREN_CUBLAS_CHECK(cublasCreate(&handle_->cublas)); }

// A destructor cannot throw; cublasDestroy fails only when the context is already broken, and that
// failure has been reported by the call that broke it.
Blas::~Blas() {
  if (handle_->cublas) cublasDestroy(handle_->cublas);
}

}  // namespace aaren::gpu
