#include "core/nn/linear.hpp"

#include "core/nn/eigen_maps.hpp"
#include "core/nn/tiled_product.hpp"
#include "core/util/step_profile.hpp"

namespace aaren {

template <class T>
void linear_forward(T* out, const T* inp, const T* weight, const T* bias, int B, int C, int OC) {
  const profile::Scope scope(profile::Part::products);
  MatrixMap<T> o(out, B, OC);
  if (bias)
    o.rowwise() = ConstRowVectorMap<T>(bias, OC);
  else
    o.setZero();
  add_product_tiled(o, ConstMatrixMap<T>(inp, B, C), ConstMatrixMap<T>(weight, OC, C).transpose());
}

template <class T>
void linear_backward(T* dinp, T* dweight, T* dbias, const T* dout, const T* inp, const T* weight, int B, int C,
                     int OC) {
  const profile::Scope scope(profile::Part::products);
  const ConstMatrixMap<T> g(dout, B, OC);
  if (dinp) {
    MatrixMap<T> di(dinp, B, C);
    di.setZero();
    add_product_tiled(di, g, ConstMatrixMap<T>(weight, OC, C));
  }
  add_product_tiled(MatrixMap<T>(dweight, OC, C), g.transpose(), ConstMatrixMap<T>(inp, B, C));
  if (dbias) RowVectorMap<T>(dbias, OC) += g.colwise().sum();
}

#define AAREN_INSTANTIATE(T)                                                                        \
  template void linear_forward<T>(T*, const T*, const T*, const T*, int, int, int);                 \
  template void linear_backward<T>(T*, T*, T*, const T*, const T*, const T*, int, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
