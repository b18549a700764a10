#pragma once
// Layer normalization over the last axis: out = (inp - mean) * rstd * weight + bias,
// rstd = 1 / sqrt(var + 1e-5) with the biased variance. The forward keeps mean and rstd for
// the backward.

namespace aaren {

template <class T>
void layernorm_forward(T* out /*(B, C)*/, T* mean /*(B)*/, T* rstd /*(B)*/, const T* inp /*(B, C)*/,
                       const T* weight /*(C)*/, const T* bias /*(C)*/, int B, int C);

// dinp is written; dweight and dbias accumulate.
template <class T>
void layernorm_backward(T* dinp /*(B, C)*/, T* dweight /*(C)*/, T* dbias /*(C)*/, const T* dout /*(B, C)*/,
                        const T* inp /*(B, C)*/, const T* weight /*(C)*/, const T* mean /*(B)*/,
                        const T* rstd /*(B)*/, int B, int C);

}  // namespace aaren
