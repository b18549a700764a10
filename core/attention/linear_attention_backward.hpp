#pragma once
// The gradient of linear attention (core/attention/linear_attention.hpp) with respect to its
// features and values, for any feature map: with a_ij = phi(q_i) . phi(k_j) over the pairs the
// attention sees (j <= i causal, every j otherwise), num_i = sum_j a_ij v_j, den_i = sum_j a_ij + eps
// and y_i = num_i / den_i, a loss's gradient dY gives
//
//     dnum_i = dy_i / den_i,  dden_i = -(dy_i . y_i) / den_i
//     da_ij = dnum_i . v_j + dden_i
//     dphi(q_i) = sum_j da_ij phi(k_j),  dphi(k_j) = sum_i da_ij phi(q_i),  dv_j = sum_i a_ij dnum_i
//
// written plainly over every pair, O(Nq N (m + dv)): the readable reference. The model's chunked
// backward (core/nn/causal_linear_attention.hpp) is the same sums in O(N m dv); the feature maps'
// own gradients (FeatureMap::backward) carry dphi back to the queries and keys.
#include "core/attention/linear_attention.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

template <class T>
struct LinearAttentionGradients {
  Matrix<T> phi_q;  // (Nq, m)
  Matrix<T> phi_k;  // (N, m)
  Matrix<T> v;      // (N, dv)
};

// From dY (Nq, dv) and the forward's inputs; options.method is not used (every method computes the
// same function). Throws std::invalid_argument as linear_attention does, or when dY is not (Nq, dv).
template <class T>
LinearAttentionGradients<T> linear_attention_backward(const Matrix<T>& dy, const Matrix<T>& phi_q,
                                                      const Matrix<T>& phi_k, const Matrix<T>& v,
                                                      const LinearAttentionOptions& options);

}  // namespace aaren
