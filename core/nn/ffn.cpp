#include "core/nn/ffn.hpp"

#include "core/nn/gelu.hpp"
#include "core/nn/linear.hpp"

namespace aaren {

template <class T>
void ffn_forward(T* out, T* pre, T* act, const T* inp, const T* w1, const T* b1, const T* w2, const T* b2, int B,
                 int C, int F) {
  linear_forward(pre, inp, w1, b1, B, C, F);
  gelu_forward(act, pre, long(B) * F);
  linear_forward(out, act, w2, b2, B, F, C);
}

template <class T>
void ffn_backward(T* dinp, T* dw1, T* db1, T* dw2, T* db2, T* dact_scratch, const T* dout, const T* inp,
                  const T* pre, const T* act, const T* w1, const T* w2, int B, int C, int F) {
  linear_backward(dact_scratch, dw2, db2, dout, act, w2, B, F, C);
  gelu_backward(dact_scratch, pre, dact_scratch, long(B) * F);
  linear_backward(dinp, dw1, db1, dact_scratch, inp, w1, B, C, F);
}

#define AAREN_INSTANTIATE(T)                                                                          \
  template void ffn_forward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, int, int, \
                               int);                                                                  \
  template void ffn_backward<T>(T*, T*, T*, T*, T*, T*, const T*, const T*, const T*, const T*,       \
                                const T*, const T*, int, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
