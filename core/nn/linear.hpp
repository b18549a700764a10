#pragma once
// A fully connected layer: out = inp weight^T + bias, weight (OC, C) as PyTorch stores it.

namespace aaren {

template <class T>
void linear_forward(T* out /*(B, OC)*/, const T* inp /*(B, C)*/, const T* weight /*(OC, C)*/,
                    const T* bias /*(OC) or nullptr*/, int B, int C, int OC);

// dinp is written (nullptr when the input needs no gradient, e.g. the first layer's data);
// dweight and dbias accumulate (dbias is nullptr for a layer without bias).
template <class T>
void linear_backward(T* dinp /*(B, C) or nullptr*/, T* dweight /*(OC, C)*/, T* dbias /*(OC) or nullptr*/,
                     const T* dout /*(B, OC)*/, const T* inp /*(B, C)*/, const T* weight /*(OC, C)*/, int B,
                     int C, int OC);

}  // namespace aaren
