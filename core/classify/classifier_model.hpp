#pragma once
// The classifier (docs/DESIGN.md section 10): the forecasting model's blocks with a classification
// head, as a forward/backward pair over one series of n <= capacity time steps (C values each):
//   normalize   per-series instance norm over the n steps (config.instance_norm), or none (the
//               caller standardizes with the training set's statistics); a missing value (NaN)
//               becomes 0 after normalization
//   embedding   e_i = W_in x_i + b_in + PE[i]
//   backbone    the L pre-LN blocks of core/model/backbone.hpp, causal
//   head        pooled = mean_i h_i (config.pooling = mean) or h_{n-1} (last); LayerNorm ln_f;
//               logits = W_head ln_f(pooled) + b_head  (classes)
// Loss: cross-entropy with label smoothing eps: -sum_k q_k log p_k, q = (1 - eps) onehot + eps / K.
// Only the first n rows of x are read, so whatever pads a series past n cannot change its logits.
// Parameters: ParameterLayout::for_classifier (embed.*, blocks.*, ln_f.*, head.{weight,bias}).
#include <cstddef>

#include "core/classify/classifier_config.hpp"
#include "core/model/backbone.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/util/aligned_vector.hpp"

namespace aaren {

template <class T>
struct ClassifierState : BackboneState<T> {
  explicit ClassifierState(const ClassifierConfig& config);
  int n = 0;                                   // steps of the last forward
  AlignedVector<T> pe;                         // (capacity, D)
  AlignedVector<T> xn, in_mean, in_sigma;      // (capacity, C), (C), (C): the normalized input
  AlignedVector<T> pooled;                     // (D)
  AlignedVector<T> lnf, lnf_mean, lnf_rstd;    // (D), (1), (1)
  AlignedVector<T> logits, probs;              // (K), (K): softmax of the logits
};

template <class T>
struct ClassifierScratch : BackboneScratch<T> {
  explicit ClassifierScratch(const ClassifierConfig& config);
  AlignedVector<T> dlogits, dlnf, dpooled;     // (K), (D), (D)
};

// The input as the embedding reads it, rows 0..n-1 of x (n, C): with instance_norm every channel
// standardized over its present values, (x - mean) / sigma with sigma = sqrt(var + 1e-5) and the
// biased variance; without, the values as given. A missing value (NaN) becomes 0, and a channel
// with no present value is all zeros (mean 0, sigma 1). mean and sigma (C) are the statistics used
// (0 and 1 without instance norm).
template <class T>
void classifier_normalize_input(T* xn /*(n, C)*/, T* mean /*(C)*/, T* sigma /*(C)*/, const T* x /*(n, C)*/, int n,
                                int C, bool instance_norm);

// The softmax of K logits.
template <class T>
void class_probabilities(T* probs /*(K)*/, const T* logits /*(K)*/, int K);

// Throws std::invalid_argument when n is outside 1..capacity.
template <class T>
void classifier_forward(ClassifierState<T>& state, const T* params, const ParameterLayout& layout,
                        const ClassifierConfig& config, const T* x /*(n, C) row-major*/, int n);

// Cross-entropy (with the config's label smoothing) of state's logits against `label`; with
// dlogits writes d(weight * loss)/dlogits (K) = weight (probs - q). Throws std::invalid_argument for
// a label outside 0..K-1.
template <class T>
T classifier_loss(T* dlogits /*(K) or nullptr*/, const ClassifierState<T>& state, const ClassifierConfig& config,
                  int label, T weight = T(1));

// Accumulates dL/dparams into grads given dL/dlogits and the forward's state.
template <class T>
void classifier_backward(T* grads, ClassifierScratch<T>& scratch, const ClassifierState<T>& state, const T* params,
                         const ParameterLayout& layout, const ClassifierConfig& config, const T* dlogits /*(K)*/);

}  // namespace aaren
