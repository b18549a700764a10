#pragma once
// The exact GELU, 0.5 x (1 + erf(x / sqrt 2)) = x Phi(x), not the tanh approximation: the models
// follow the PyTorch default so checkpoints behave the same in both.
// In float, erf and exp are computed a vector at a time (Eigen's rational erf, a couple of ulp in
// [-4, 4] and exactly +-1 beyond, where float's erf is +-1 anyway; Eigen's exp): with std::erf one
// number at a time, GELU took over a third of a training step (`aaren bench train --profile`).
// Double, and the reference the float path is checked against, call std::erf and std::exp.

namespace aaren {

template <class T>
void gelu_forward(T* out /*(N)*/, const T* inp /*(N)*/, long N);

// dinp is written and may be the same buffer as dout (the FFN backward does this in place).
template <class T>
void gelu_backward(T* dinp /*(N)*/, const T* inp /*(N)*/, const T* dout /*(N)*/, long N);

// The readable one number at a time, with std::erf and std::exp.
template <class T>
void gelu_forward_reference(T* out, const T* inp, long N);
template <class T>
void gelu_backward_reference(T* dinp, const T* inp, const T* dout, long N);

}  // namespace aaren
