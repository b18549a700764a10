#include "core/nn/gelu.hpp"

#include <cmath>
#include <numbers>
#include <type_traits>

#include "core/util/eigen_special_functions.hpp"
#include "core/util/step_profile.hpp"

namespace aaren {

namespace {
template <class T>
constexpr T inv_sqrt2 = T(1) / std::numbers::sqrt2_v<T>;
template <class T>
constexpr T inv_sqrt_2pi = std::numbers::inv_sqrtpi_v<T> / std::numbers::sqrt2_v<T>;
}  // namespace

template <class T>
void gelu_forward_reference(T* out, const T* inp, long N) {
  for (long i = 0; i < N; ++i) out[i] = T(0.5) * inp[i] * (T(1) + std::erf(inp[i] * inv_sqrt2<T>));
}

// d/dx [x Phi(x)] = Phi(x) + x phi(x), phi the standard normal density.
template <class T>
void gelu_backward_reference(T* dinp, const T* inp, const T* dout, long N) {
  for (long i = 0; i < N; ++i) {
    const T x = inp[i];
    const T cdf = T(0.5) * (T(1) + std::erf(x * inv_sqrt2<T>));
    const T pdf = inv_sqrt_2pi<T> * std::exp(T(-0.5) * x * x);
    dinp[i] = dout[i] * (cdf + x * pdf);
  }
}

template <class T>
void gelu_forward(T* out, const T* inp, long N) {
  const profile::Scope scope(profile::Part::gelu);
  if constexpr (std::is_same_v<T, float>) {
    const Eigen::Map<const Eigen::ArrayXf> x(inp, N);
    Eigen::Map<Eigen::ArrayXf>(out, N) = 0.5f * x * (1.0f + (x * inv_sqrt2<float>).erf());
  } else {
    gelu_forward_reference(out, inp, N);
  }
}

template <class T>
void gelu_backward(T* dinp, const T* inp, const T* dout, long N) {
  const profile::Scope scope(profile::Part::gelu);
  if constexpr (std::is_same_v<T, float>) {
    const Eigen::Map<const Eigen::ArrayXf> x(inp, N), g(dout, N);
    Eigen::Map<Eigen::ArrayXf>(dinp, N) =
        g * (0.5f * (1.0f + (x * inv_sqrt2<float>).erf()) + x * inv_sqrt_2pi<float> * (-0.5f * x * x).exp());
  } else {
    gelu_backward_reference(dinp, inp, dout, N);
  }
}

#define AAREN_INSTANTIATE(T)                                                \
  template void gelu_forward<T>(T*, const T*, long);                       \
  template void gelu_backward<T>(T*, const T*, const T*, long);            \
  template void gelu_forward_reference<T>(T*, const T*, long);             \
  template void gelu_backward_reference<T>(T*, const T*, const T*, long);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
