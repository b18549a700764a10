#pragma once
// The Transformer mixer's attention core: causal multi-head softmax self-attention of one sequence.
// q, k, v are the already projected (L, C) matrices, C = H * d_head; head h owns columns
// h * d_head .. (h + 1) * d_head - 1. Scores are scaled by 1 / sqrt(d_head); row t attends to
// keys 0..t. Throws std::invalid_argument when C is not a multiple of H.

namespace aaren {

// probs (H, L, L) keeps the softmax weights for the backward; its upper triangle is written as 0.
template <class T>
void causal_attention_forward(T* out /*(L, C)*/, T* probs /*(H, L, L)*/, const T* q /*(L, C)*/,
                              const T* k /*(L, C)*/, const T* v /*(L, C)*/, int L, int C, int H);

// dq, dk, dv are written.
template <class T>
void causal_attention_backward(T* dq /*(L, C)*/, T* dk /*(L, C)*/, T* dv /*(L, C)*/, T* dprobs_scratch /*(L)*/,
                               const T* dout /*(L, C)*/, const T* q /*(L, C)*/, const T* k /*(L, C)*/,
                               const T* v /*(L, C)*/, const T* probs /*(H, L, L)*/, int L, int C, int H);

// One new token (position t) against a KV cache holding tokens 0..t, its own k and v already
// appended as row t. Equals row t of causal_attention_forward on the same prefix.
template <class T>
void causal_attention_decode(T* out /*(C)*/, T* scores_scratch /*(t + 1)*/, const T* q /*(C)*/,
                             const T* k_cache /*(t + 1, C)*/, const T* v_cache /*(t + 1, C)*/, int t_plus_1,
                             int C, int H);

}  // namespace aaren
