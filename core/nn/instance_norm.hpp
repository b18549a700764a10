#pragma once
// Instance normalization of one input window (docs/DESIGN.md section 4): every channel is standardized
// over the window's time axis, out = (inp - mean) / sigma with sigma = sqrt(var + 1e-5) and the
// biased variance; the forecast is mapped back with the same statistics, out = inp * sigma + mean.

namespace aaren {

template <class T>
void instance_norm_forward(T* out /*(L, C)*/, T* mean /*(C)*/, T* sigma /*(C)*/, const T* inp /*(L, C)*/,
                           int L, int C);

// The full gradient, through mean and sigma as well. dinp is written.
template <class T>
void instance_norm_backward(T* dinp /*(L, C)*/, const T* dout /*(L, C)*/, const T* inp /*(L, C)*/,
                            const T* mean /*(C)*/, const T* sigma /*(C)*/, int L, int C);

template <class T>
void instance_denorm_forward(T* out /*(H, C)*/, const T* inp /*(H, C)*/, const T* mean /*(C)*/,
                             const T* sigma /*(C)*/, int H, int C);

// The gradient with respect to inp only: mean and sigma are statistics of the data, not functions
// of anything trained. dinp is written.
template <class T>
void instance_denorm_backward(T* dinp /*(H, C)*/, const T* dout /*(H, C)*/, const T* sigma /*(C)*/, int H,
                              int C);

}  // namespace aaren
