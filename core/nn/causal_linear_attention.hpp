#pragma once
// The linear Transformer's attention (Katharopoulos et al. 2020) as two layers, each a
// forward/backward pair on the projected (L, C) matrices, C = H * d_head, head h owning columns
// h * d_head .. (h + 1) * d_head - 1:
//
//   the feature map  phi(x) = elu(x) + 1, element-wise, applied to the queries and the keys;
//   causal multi-head linear attention of the features,
//
//     y_i = phi(q_i)^T S_i / (phi(q_i)^T z_i + eps),  S_i = sum_{j<=i} phi(k_j) v_j^T,  z_i = sum_{j<=i} phi(k_j)
//
// (core/attention/linear_attention.hpp holds the methods and feature maps themselves.) The forward
// runs the chunked form, O(L chunk d_head + L d_head^2) per head; so does the backward, two scans
// over the chunks in the same order of time and memory, with nothing of size L x L:
//
//     dn_i = g_i / den_i,  dd_i = -(g_i . y_i) / den_i                 (numerator, denominator)
//     dphi(q_i) = S_i dn_i + z_i dd_i                                   (forward scan of S, z)
//     R_j = sum_{i>=j} phi(q_i) dn_i^T,  r_j = sum_{i>=j} phi(q_i) dd_i  (reverse scan)
//     dv_j = R_j^T phi(k_j),  dphi(k_j) = R_j v_j + r_j
//
// A chunk's rows take S, z (R, r) as they stood before the chunk and add the chunk's own terms as
// products with the masked matrices similarity = tril(phi(Q) phi(K)^T) and
// A = tril(dN V^T + dd 1^T), whose entry (i, j), j <= i, is dn_i . v_j + dd_i:
//
//     dPhiQ = dN S^T + dd z^T + A PhiK,   dV = PhiK R + similarity^T dN,   dPhiK = V R^T + 1 r^T + A^T PhiQ
//
// Both work in a LinearAttentionScratch sized once, so a training step allocates nothing.
#include <algorithm>
#include <cstddef>

#include "core/attention/linear_attention.hpp"
#include "core/util/aligned_vector.hpp"

namespace aaren {

// Tokens per chunk for heads of d_head dimensions: about d_head, where a chunk's products among its
// own tokens (chunk^2 d_head) cost what its products with the running S cost (chunk d_head^2); at
// least 16, below which the products are too small to run at speed. (`aaren bench train --model
// linear` at T = 2048, d_head 16: 21.1 samples/s with chunks of 16, 19.3 with 64.)
inline int linear_attention_chunk(int d_head) { return std::max(16, d_head); }

// x = phi(x) in place, n numbers: the model's feature map, phi(x) = elu(x) + 1, x + 1 above 0 and
// exp(x) elsewhere (positive, so every denominator is). Vectorized (Eigen's exp, within an ulp or
// two of std::exp), and the same bits for a number wherever it sits in x, so a stream's token and
// a window's rows agree exactly.
template <class T>
void elu_plus_one_forward(T* x, std::size_t n);

// d = d * phi'(x) in place, from phi(x) itself: the slope is 1 where x > 0 (phi > 1) and
// exp(x) = phi(x) elsewhere, so it is min(phi, 1).
template <class T>
void elu_plus_one_backward(T* d, const T* phi, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] *= std::min(phi[i], T(1));
}

// The small buffers a forward or backward of heads of d_head dimensions works in:
// 2 chunk^2 + chunk (d_head + 1) + d_head^2 + d_head numbers. Throws std::invalid_argument when C is not
// a multiple of H or the chunk is below 1.
template <class T>
struct LinearAttentionScratch {
  LinearAttentionScratch(int d_model, int heads, int chunk);
  int d_head, chunk;
  AlignedVector<T> similarity, weights;  // (chunk, chunk) a chunk's masked phi(q) phi(k)^T; the backward's A
  AlignedVector<T> rows;                 // (chunk, d_head) a chunk's numerators, or its dn
  AlignedVector<T> dd;                   // (chunk) a chunk's dd
  AlignedVector<T> memory;               // (d_head, d_head) S, or R in the backward
  AlignedVector<T> normalizer;           // (d_head) z, or r in the backward
};

// out (L, C); den (H, L) keeps each token's denominator for the backward. phi_q and phi_k are the
// features (positive). Throws std::invalid_argument when C and H do not match the scratch's.
template <class T>
void causal_linear_attention_forward(T* out /*(L, C)*/, T* den /*(H, L)*/, LinearAttentionScratch<T>& scratch,
                                     const T* phi_q /*(L, C)*/, const T* phi_k /*(L, C)*/, const T* v /*(L, C)*/,
                                     int L, int C, int H, T eps = T(kLinearAttentionEps));

// dphi_q, dphi_k and dv are written, from the forward's out and den.
template <class T>
void causal_linear_attention_backward(T* dphi_q /*(L, C)*/, T* dphi_k /*(L, C)*/, T* dv /*(L, C)*/,
                                      LinearAttentionScratch<T>& scratch, const T* dout /*(L, C)*/,
                                      const T* phi_q /*(L, C)*/, const T* phi_k /*(L, C)*/, const T* v /*(L, C)*/,
                                      const T* out /*(L, C)*/, const T* den /*(H, L)*/, int L, int C, int H);

}  // namespace aaren
