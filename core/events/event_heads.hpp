#pragma once
// The event model's two heads read per position (one row of the heads' Linear outputs), and their
// losses (negative log-likelihoods) with hand-written gradients.
//
// Time head, raw row (3K) = [a (K) | mu (K) | rho (K)]: a mixture of K log-normals for the next
// scaled gap x = tau / s (intensity-free TPP, Shchur et al. 2020):
//   log x ~ sum_k pi_k N(mu_k, sigma_k^2),   pi = softmax(a),   log sigma_k = bound(rho_k)
//   p(x) = p_log(log x) / x,                 E[x] = sum_k pi_k exp(mu_k + sigma_k^2 / 2)
// bound() is a soft clamp of log sigma into (kLogScaleMin, kLogScaleMax):
//   bound(rho) = b tanh(rho / b),  b = kLogScaleMax for rho >= 0, b = -kLogScaleMin for rho < 0,
// which equals rho to second order around 0 (sigma = 1 at rho = 0) and is smooth everywhere. The
// floor keeps a component from collapsing onto repeated gaps (the density of log x is at most
// e^5 / sqrt(2 pi) per component), the ceiling keeps the mean finite (exp(sigma^2 / 2) <= e^10).
//
// Mark head, row (M) of logits: P(k) = softmax.
namespace aaren {

inline constexpr double kLogScaleMin = -5.0;
inline constexpr double kLogScaleMax = 1.5;

template <class T>
T bounded_log_scale(T rho);

// pi, mu, sigma of one position's mixture.
template <class T>
void mixture_from_raw(T* weights /*(K)*/, T* mu /*(K)*/, T* sigma /*(K)*/, const T* raw /*(3K)*/, int K);

// log p_log(y): the mixture's log density over y = log x (-inf where every weight is 0).
template <class T>
T mixture_log_density(const T* weights, const T* mu, const T* sigma, int K, T log_gap);

// E[x] in units of s, computed in double so that a wide component does not overflow a float.
template <class T>
double mixture_mean(const T* weights, const T* mu, const T* sigma, int K);

// -log p(x) of the scaled gap x = exp(log_gap): the density over x (so it includes + log x).
// Writes weight * d(-log p)/d(raw) into draw when given.
template <class T>
T mixture_nll(T* draw /*(3K) or nullptr*/, const T* raw /*(3K)*/, T log_gap, int K, T weight);

template <class T>
void mark_probabilities(T* probs /*(M)*/, const T* logits /*(M)*/, int M);

// -log P(mark); writes weight * d(-log P)/d(logits) into dlogits when given.
template <class T>
T mark_nll(T* dlogits /*(M) or nullptr*/, const T* logits /*(M)*/, int mark, int M, T weight);

}  // namespace aaren
