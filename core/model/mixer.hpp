#pragma once
// The token mixers of a block, Aaren, Transformer and linear Transformer, as forward/backward pairs
// over one sequence of L tokens (L <= the capacity the buffers were sized for). docs/DESIGN.md
// section 4.
//   Transformer: Q, K, V = x Wq^T + bq, x Wk^T + bk, x Wv^T + bv; causal softmax attention per
//                head (scores / sqrt(d_head)); out = att Wo^T + bo.
//   Aaren:       the same, but the query is learned and constant: q = Wq q0 + bq, and each head
//                attends over every prefix by the scan (core/attention/prefix_attention.hpp).
//   Linear:      the Transformer's projections, with causal linear attention per head in place of
//                softmax (phi = elu + 1, no 1/sqrt(d_head): core/nn/causal_linear_attention.hpp).
#include <cstddef>
#include <optional>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/util/aligned_vector.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/nn/causal_linear_attention.hpp"

namespace aaren {

template <class T>
struct MixerWeights {
  const T* q0;  // Aaren only
  const T *wq_w, *wq_b, *wk_w, *wk_b, *wv_w, *wv_b, *wo_w, *wo_b;
};

template <class T>
struct MixerGrads {
  T* q0;
  T *wq_w, *wq_b, *wk_w, *wk_b, *wv_w, *wv_b, *wo_w, *wo_b;
};

template <class T>
MixerWeights<T> mixer_weights(const T* params, const BlockOffsets& b);
template <class T>
MixerGrads<T> mixer_grads(T* grads, const BlockOffsets& b);

// What one mixer's forward keeps for its backward.
template <class T>
struct MixerCache {
  MixerCache(ModelKind kind, int capacity, int d_model, int heads);
  AlignedVector<T> q;      // Aaren: (C) the constant query; Transformer, linear: (L, C)
  AlignedVector<T> k, v;   // (L, C)
  AlignedVector<T> att;    // (L, C) attention output, before Wo
  AlignedVector<T> log_z;  // Aaren: (H, L) log of each prefix's softmax normalizer
  AlignedVector<T> probs;  // Transformer: (H, L, L) attention weights
  AlignedVector<T> den;    // linear: (H, L) each token's denominator phi(q_i) . z_i + eps
  std::optional<LinearAttentionScratch<T>> linear;  // linear: the forward's chunk buffers
  // Linear: q and k hold the features phi(q), phi(k), from which the backward also takes phi's slope.
};

// Scratch for the backward, shared by the layers of one worker.
template <class T>
struct MixerScratch {
  MixerScratch(ModelKind kind, int capacity, int d_model, int heads);
  AlignedVector<T> datt, dq, dk, dv, dx;  // (L, C)
  AlignedVector<T> scores, dscores;       // (L); the Transformer's dscores (L, L + 1)
  AlignedVector<T> r, dq0;                // (C)
  std::optional<LinearAttentionScratch<T>> linear;  // linear: the backward's scan buffers
};

// The numbers of one linear attention scratch for these buffers' capacity (what the memory
// estimate counts).
std::size_t linear_attention_scratch_values(int capacity, int d_model, int heads);

template <class T>
void mixer_forward(T* out /*(L, C)*/, MixerCache<T>& cache, const T* x /*(L, C)*/, const MixerWeights<T>& w,
                   ModelKind kind, int L, int C, int H);

// Writes dx; accumulates the weight gradients.
template <class T>
void mixer_backward(T* dx /*(L, C)*/, const MixerGrads<T>& g, MixerScratch<T>& scratch, const T* dout /*(L, C)*/,
                    const T* x /*(L, C)*/, const MixerCache<T>& cache, const MixerWeights<T>& w, ModelKind kind,
                    int L, int C, int H);

}  // namespace aaren
