#include "core/nn/instance_norm.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace aaren {

namespace {
constexpr double instance_norm_eps = 1e-5;
}  // namespace

template <class T>
void instance_norm_forward(T* out, T* mean, T* sigma, const T* inp, int L, int C) {
  if (L < 1)
    throw std::invalid_argument("instance norm: the input window has " + std::to_string(L) +
                                " time steps; it needs at least one");
  // Rows outer, channels inner: the window is read in memory order. sigma first holds the sum of
  // squared deviations.
  for (int c = 0; c < C; ++c) mean[c] = sigma[c] = 0;
  for (int t = 0; t < L; ++t)
    for (int c = 0; c < C; ++c) mean[c] += inp[long(t) * C + c];
  for (int c = 0; c < C; ++c) mean[c] /= T(L);
  for (int t = 0; t < L; ++t)
    for (int c = 0; c < C; ++c) {
      const T d = inp[long(t) * C + c] - mean[c];
      sigma[c] += d * d;
    }
  for (int c = 0; c < C; ++c) sigma[c] = std::sqrt(sigma[c] / T(L) + T(instance_norm_eps));
  for (int t = 0; t < L; ++t)
    for (int c = 0; c < C; ++c) out[long(t) * C + c] = (inp[long(t) * C + c] - mean[c]) / sigma[c];
}

// Per channel, with n = (x - mean) / sigma: dx = (dout - mean(dout) - n mean(dout n)) / sigma,
// the layer norm formula along the time axis.
template <class T>
void instance_norm_backward(T* dinp, const T* dout, const T* inp, const T* mean, const T* sigma, int L, int C) {
  for (int c = 0; c < C; ++c) {
    const T inv_sigma = T(1) / sigma[c];
    T g_mean = 0;
    T g_n_mean = 0;
    for (int t = 0; t < L; ++t) {
      const T g = dout[long(t) * C + c];
      g_mean += g;
      g_n_mean += g * (inp[long(t) * C + c] - mean[c]) * inv_sigma;
    }
    g_mean /= T(L);
    g_n_mean /= T(L);
    for (int t = 0; t < L; ++t) {
      const T n = (inp[long(t) * C + c] - mean[c]) * inv_sigma;
      dinp[long(t) * C + c] = (dout[long(t) * C + c] - g_mean - n * g_n_mean) * inv_sigma;
    }
  }
}

template <class T>
void instance_denorm_forward(T* out, const T* inp, const T* mean, const T* sigma, int H, int C) {
  for (int t = 0; t < H; ++t)
    for (int c = 0; c < C; ++c) out[long(t) * C + c] = inp[long(t) * C + c] * sigma[c] + mean[c];
}

template <class T>
void instance_denorm_backward(T* dinp, const T* dout, const T* sigma, int H, int C) {
  for (int t = 0; t < H; ++t)
    for (int c = 0; c < C; ++c) dinp[long(t) * C + c] = dout[long(t) * C + c] * sigma[c];
}

#define AAREN_INSTANTIATE(T)                                                                          \
  template void instance_norm_forward<T>(T*, T*, T*, const T*, int, int);                            \
  template void instance_norm_backward<T>(T*, const T*, const T*, const T*, const T*, int, int);     \
  template void instance_denorm_forward<T>(T*, const T*, const T*, const T*, int, int);              \
  template void instance_denorm_backward<T>(T*, const T*, const T*, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
