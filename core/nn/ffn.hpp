#pragma once
// The position-wise feed-forward block: out = fc2(GELU(fc1(inp))), hidden size F.
// The forward keeps fc1's output (pre) and the GELU output (act) for the backward.

namespace aaren {

template <class T>
void ffn_forward(T* out /*(B, C)*/, T* pre /*(B, F)*/, T* act /*(B, F)*/, const T* inp /*(B, C)*/,
                 const T* w1 /*(F, C)*/, const T* b1 /*(F)*/, const T* w2 /*(C, F)*/, const T* b2 /*(C)*/, int B,
                 int C, int F);

// dinp is written (nullptr skips it); dw1, db1, dw2, db2 accumulate. dact_scratch holds the
// gradient at the GELU output, then at its input.
template <class T>
void ffn_backward(T* dinp /*(B, C)*/, T* dw1 /*(F, C)*/, T* db1 /*(F)*/, T* dw2 /*(C, F)*/, T* db2 /*(C)*/,
                  T* dact_scratch /*(B, F)*/, const T* dout /*(B, C)*/, const T* inp /*(B, C)*/,
                  const T* pre /*(B, F)*/, const T* act /*(B, F)*/, const T* w1 /*(F, C)*/,
                  const T* w2 /*(C, F)*/, int B, int C, int F);

}  // namespace aaren
