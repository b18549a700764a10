// The linear layer on cuBLAS. cuBLAS is column-major: a row-major (R, K) buffer is, to it, the
// (K, R) matrix X^T with leading dimension K. So out (B, OC) = inp W^T is the column-major product
// out^T (OC, B) = W (OC, C) inp^T (C, B), with W read transposed from its (C, OC) column-major view.
#include "gpu/blas_handle.cuh"
#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

void check_linear_sizes(const char* function, int B, int C, int OC) {
  require_non_negative(function, "B", B);
  require_positive(function, "C", C);
  require_positive(function, "OC", OC);
}

}  // namespace

void linear_forward(Blas& blas, float* out, const float* inp, const float* weight, const float* bias, int B, int C,
                    int OC) {
  check_linear_sizes("linear_forward", B, C, OC);
  if (B == 0) return;
  const float one = 1.0f;
  // With beta = 0 cuBLAS does not read out, so whatever it held cannot leak into the result.
  float beta = 0.0f;
  if (bias) {
    // out[b, o] = bias[o]: the GEMM then adds the product onto it (beta = 1), as the CPU does.
    broadcast_rows(out, bias, B, OC);
    beta = 1.0f;
  }
  AAREN_CUBLAS_CHECK(cublasSgemm(blas.handle().cublas, CUBLAS_OP_T, CUBLAS_OP_N, OC, B, C, &one, weight, C, inp, C,
                                 &beta, out, OC));
}

// dinp^T (C, B) = W^T (C, OC) dout^T (OC, B): W's column-major view is W^T already.
// dW^T (C, OC) += inp^T (C, B) dout (B, OC): dout's column-major view is dout^T, read transposed.
void linear_backward(Blas& blas, float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, int B, int C, int OC) {
  check_linear_sizes("linear_backward", B, C, OC);
  if (B == 0) return;
  const float one = 1.0f, zero = 0.0f;
  if (dinp)
    AAREN_CUBLAS_CHECK(cublasSgemm(blas.handle().cublas, CUBLAS_OP_N, CUBLAS_OP_N, C, B, OC, &one, weight, C, dout,
                                   OC, &zero, dinp, C));
  AAREN_CUBLAS_CHECK(cublasSgemm(blas.handle().cublas, CUBLAS_OP_N, CUBLAS_OP_T, C, OC, B, &one, inp, C, dout, OC,
                                 &one, dweight, C));
  if (dbias) sum_rows_add(dbias, dout, B, OC);
}

}  // namespace aaren::gpu
