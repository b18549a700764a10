#pragma once
// The exact GELU, 0.5 x (1 + erf(x / sqrt 2)) = x Phi(x), not the tanh approximation: the models
// follow the PyTorch default so checkpoints behave the same in both.

namespace aaren {

template <class T>
void gelu_forward(T* out /*(N)*/, const T* inp /*(N)*/, long N);

// dinp is written and may be the same buffer as dout (the FFN backward does this in place).
template <class T>
void gelu_backward(T* dinp /*(N)*/, const T* inp /*(N)*/, const T* dout /*(N)*/, long N);

}  // namespace aaren
