#include "core/nn/layernorm.hpp"

#include <cmath>

#include "core/util/step_profile.hpp"

namespace aaren {

namespace {
constexpr double layernorm_eps = 1e-5;
}  // namespace

template <class T>
void layernorm_forward(T* out, T* mean, T* rstd, const T* inp, const T* weight, const T* bias, int B, int C) {
  const profile::Scope scope(profile::Part::layernorm);
  for (int b = 0; b < B; ++b) {
    const T* x = inp + long(b) * C;
    T* y = out + long(b) * C;
    T m = 0;
    for (int i = 0; i < C; ++i) m += x[i];
    m /= T(C);
    // Two passes (mean, then squared deviations) rather than E[x^2] - E[x]^2, which cancels badly
    // when the mean is large next to the spread.
    T var = 0;
    for (int i = 0; i < C; ++i) var += (x[i] - m) * (x[i] - m);
    var /= T(C);
    const T r = T(1) / std::sqrt(var + T(layernorm_eps));
    for (int i = 0; i < C; ++i) y[i] = (x[i] - m) * r * weight[i] + bias[i];
    mean[b] = m;
    rstd[b] = r;
  }
}

// With n = (x - mean) rstd and dn = dout * weight:
//   dx = rstd (dn - mean(dn) - n mean(dn n)),  dweight += dout n,  dbias += dout.
template <class T>
void layernorm_backward(T* dinp, T* dweight, T* dbias, const T* dout, const T* inp, const T* weight,
                        const T* mean, const T* rstd, int B, int C) {
  const profile::Scope scope(profile::Part::layernorm);
  for (int b = 0; b < B; ++b) {
    const T* x = inp + long(b) * C;
    const T* g = dout + long(b) * C;
    T* dx = dinp + long(b) * C;
    const T m = mean[b];
    const T r = rstd[b];
    T dn_mean = 0;
    T dn_n_mean = 0;
    for (int i = 0; i < C; ++i) {
      const T n = (x[i] - m) * r;
      const T dn = g[i] * weight[i];
      dn_mean += dn;
      dn_n_mean += dn * n;
    }
    dn_mean /= T(C);
    dn_n_mean /= T(C);
    for (int i = 0; i < C; ++i) {
      const T n = (x[i] - m) * r;
      const T dn = g[i] * weight[i];
      dbias[i] += g[i];
      dweight[i] += g[i] * n;
      dx[i] = (dn - dn_mean - n * dn_n_mean) * r;
    }
  }
}

#define AAREN_INSTANTIATE(T)                                                                         \
  template void layernorm_forward<T>(T*, T*, T*, const T*, const T*, const T*, int, int);           \
  template void layernorm_backward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, \
                                      int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
