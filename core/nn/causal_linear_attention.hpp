#pragma once
// The linear Transformer's attention core (Katharopoulos et al. 2020): causal multi-head linear
// attention of one sequence with phi(x) = elu(x) + 1, as a forward/backward pair on the projected
// (L, C) matrices, C = H * d_head, head h owning columns h * d_head .. (h + 1) * d_head - 1:
//
//     y_i = phi(q_i)^T S_i / (phi(q_i)^T z_i + eps),  S_i = sum_{j<=i} phi(k_j) v_j^T,  z_i = sum_{j<=i} phi(k_j)
//
// (core/attention/linear_attention.hpp holds the methods and feature maps themselves.) The forward
// runs the chunked form, O(L d_head^2) per head; the backward is two linear scans in the same
// order of time and in O(d_head^2) memory, with nothing of size L x L:
//
//     dn_i = g_i / den_i,  dd_i = -(g_i . y_i) / den_i                 (numerator, denominator)
//     dphi(q_i) = S_i dn_i + z_i dd_i                                   (forward scan of S, z)
//     R_j = sum_{i>=j} phi(q_i) dn_i^T,  r_j = sum_{i>=j} phi(q_i) dd_i  (reverse scan)
//     dv_j = R_j^T phi(k_j),  dphi(k_j) = R_j v_j + r_j
//
// then through phi: d/dx (elu(x) + 1) is 1 for x > 0 and exp(x) otherwise.
#include "core/attention/linear_attention.hpp"

namespace aaren {

// out (L, C); den (H, L) keeps each row's denominator for the backward. Throws
// std::invalid_argument when C is not a multiple of H.
template <class T>
void causal_linear_attention_forward(T* out /*(L, C)*/, T* den /*(H, L)*/, const T* q /*(L, C)*/, const T* k /*(L, C)*/,
                                     const T* v /*(L, C)*/, int L, int C, int H, int chunk = 64,
                                     T eps = T(kLinearAttentionEps));

// dq, dk, dv are written.
template <class T>
void causal_linear_attention_backward(T* dq /*(L, C)*/, T* dk /*(L, C)*/, T* dv /*(L, C)*/, const T* dout /*(L, C)*/,
                                      const T* q /*(L, C)*/, const T* k /*(L, C)*/, const T* v /*(L, C)*/,
                                      const T* out /*(L, C)*/, const T* den /*(H, L)*/, int L, int C, int H);

}  // namespace aaren
