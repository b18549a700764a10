#include "core/events/event_heads.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/nn/softmax.hpp"

namespace aaren {

namespace {

template <class T>
T half_log_two_pi() {
  return T(0.5 * std::log(2 * std::numbers::pi));
}

template <class T>
T bound_width(T rho) {
  return rho >= T(0) ? T(kLogScaleMax) : T(-kLogScaleMin);
}

// Component k of the mixture at y, from the raw row: log pi_k + log N(y; mu_k, sigma_k^2), z_k, sigma_k.
template <class T>
struct Component {
  T log_joint, z, sigma;
};

template <class T>
Component<T> component(const T* raw, int K, int k, T log_norm, T y) {
  const T log_sigma = bounded_log_scale(raw[2 * K + k]);
  const T sigma = std::exp(log_sigma);
  const T z = (y - raw[K + k]) / sigma;
  return {raw[k] - log_norm - T(0.5) * z * z - log_sigma - half_log_two_pi<T>(), z, sigma};
}

}  // namespace

template <class T>
T bounded_log_scale(T rho) {
  const T b = bound_width(rho);
  return b * std::tanh(rho / b);
}

template <class T>
void mixture_from_raw(T* weights, T* mu, T* sigma, const T* raw, int K) {
  const T log_norm = log_sum_exp(raw, K);
  for (int k = 0; k < K; ++k) {
    weights[k] = std::exp(raw[k] - log_norm);
    mu[k] = raw[K + k];
    sigma[k] = std::exp(bounded_log_scale(raw[2 * K + k]));
  }
}

template <class T>
T mixture_log_density(const T* weights, const T* mu, const T* sigma, int K, T y) {
  T largest = -std::numeric_limits<T>::infinity();
  const auto log_joint = [&](int k) {
    if (!(weights[k] > T(0))) return -std::numeric_limits<T>::infinity();
    const T z = (y - mu[k]) / sigma[k];
    return std::log(weights[k]) - T(0.5) * z * z - std::log(sigma[k]) - half_log_two_pi<T>();
  };
  for (int k = 0; k < K; ++k) largest = std::max(largest, log_joint(k));
  if (largest == -std::numeric_limits<T>::infinity()) return largest;
  T sum = 0;
  for (int k = 0; k < K; ++k) sum += std::exp(log_joint(k) - largest);
  return largest + std::log(sum);
}

template <class T>
double mixture_mean(const T* weights, const T* mu, const T* sigma, int K) {
  double mean = 0;
  for (int k = 0; k < K; ++k) {
    const double s = double(sigma[k]);
    mean += double(weights[k]) * std::exp(double(mu[k]) + 0.5 * s * s);
  }
  return mean;
}

// With r_k = pi_k N_k / p (the posterior of component k) and z_k = (y - mu_k) / sigma_k:
//   d(-log p)/da_k = pi_k - r_k,  d(-log p)/dmu_k = -r_k z_k / sigma_k,
//   d(-log p)/d(log sigma_k) = r_k (1 - z_k^2), times bound'(rho_k) = 1 - tanh^2(rho_k / b).
// Components are recomputed per pass rather than stored, so nothing is allocated.
template <class T>
T mixture_nll(T* draw, const T* raw, T y, int K, T weight) {
  const T log_norm = log_sum_exp(raw, K);
  T largest = -std::numeric_limits<T>::infinity();
  for (int k = 0; k < K; ++k) largest = std::max(largest, component(raw, K, k, log_norm, y).log_joint);
  T sum = 0;
  for (int k = 0; k < K; ++k) sum += std::exp(component(raw, K, k, log_norm, y).log_joint - largest);
  const T log_p = largest + std::log(sum);
  if (draw) {
    for (int k = 0; k < K; ++k) {
      const Component<T> c = component(raw, K, k, log_norm, y);
      const T r = std::exp(c.log_joint - log_p);
      const T pi = std::exp(raw[k] - log_norm);
      const T rho = raw[2 * K + k];
      const T t = std::tanh(rho / bound_width(rho));
      draw[k] = weight * (pi - r);
      draw[K + k] = weight * (-r * c.z / c.sigma);
      draw[2 * K + k] = weight * r * (T(1) - c.z * c.z) * (T(1) - t * t);
    }
  }
  return y - log_p;
}

template <class T>
void mark_probabilities(T* probs, const T* logits, int M) {
  softmax(probs, logits, M);
}

template <class T>
T mark_nll(T* dlogits, const T* logits, int mark, int M, T weight) {
  const T log_norm = log_sum_exp(logits, M);
  if (dlogits)
    for (int k = 0; k < M; ++k) dlogits[k] = weight * (std::exp(logits[k] - log_norm) - (k == mark ? T(1) : T(0)));
  return log_norm - logits[mark];
}

#define AAREN_INSTANTIATE(T)                                                  \
  template T bounded_log_scale<T>(T);                                         \
  template void mixture_from_raw<T>(T*, T*, T*, const T*, int);               \
  template T mixture_log_density<T>(const T*, const T*, const T*, int, T);    \
  template double mixture_mean<T>(const T*, const T*, const T*, int);         \
  template T mixture_nll<T>(T*, const T*, T, int, T);                         \
  template void mark_probabilities<T>(T*, const T*, int);                     \
  template T mark_nll<T>(T*, const T*, int, int, T);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
