#pragma once
// The Transformer mixer's attention core: causal multi-head softmax self-attention of one sequence.
// q, k, v are the already projected (L, C) matrices, C = H * d_head; head h owns columns
// h * d_head .. (h + 1) * d_head - 1. Scores are scaled by 1 / sqrt(d_head); row t attends to
// keys 0..t. Throws std::invalid_argument when C is not a multiple of H.
#include <cstddef>
#include <vector>

#include "core/nn/kv_cache.hpp"

namespace aaren {

class WorkerPool;

// probs (H, L, L) keeps the softmax weights for the backward; its upper triangle is written as 0.
template <class T>
void causal_attention_forward(T* out /*(L, C)*/, T* probs /*(H, L, L)*/, const T* q /*(L, C)*/,
                              const T* k /*(L, C)*/, const T* v /*(L, C)*/, int L, int C, int H);

// dq, dk, dv are written; dprobs_scratch holds causal_attention_scratch_size(L) numbers.
inline long causal_attention_scratch_size(int L) { return long(L) * (long(L) + 1); }
template <class T>
void causal_attention_backward(T* dq /*(L, C)*/, T* dk /*(L, C)*/, T* dv /*(L, C)*/, T* dprobs_scratch /*(L, L + 1)*/,
                               const T* dout /*(L, C)*/, const T* q /*(L, C)*/, const T* k /*(L, C)*/,
                               const T* v /*(L, C)*/, const T* probs /*(H, L, L)*/, int L, int C, int H);

// One new token (position t) against a KV cache holding tokens 0..t, its own k and v already
// appended as row t. Equals row t of causal_attention_forward on the same prefix to rounding (the
// forward multiplies matrices, the decode folds the row's tokens in): the readable decode, over
// row-major (t + 1, C) keys and values, that the streaming decode below is checked against.
template <class T>
void causal_attention_decode(T* out /*(C)*/, T* scores_scratch /*(t + 1)*/, const T* q /*(C)*/,
                             const T* k_cache /*(t + 1, C)*/, const T* v_cache /*(t + 1, C)*/, int t_plus_1,
                             int C, int H);

// The streaming Transformer's decode: the same output, over a KvCache holding tokens 0..t (the
// new token appended). It reads each head's keys and values once, in memory order, a tile at a
// time: a tile's scores, its softmax weights and its weighted sum of values are computed while the
// tile is in the first-level cache, and folded into the head's running (m, u, w) (docs/DESIGN.md
// section 3). With a pool of two or more workers and a cache of at least split_min_bytes, each
// head's tiles are split into ranges that the workers read at once, and the ranges' (m, u, w) are
// merged by the combine, in a fixed order, so the result does not depend on which worker took
// which range. `partials` is scratch the call sizes; keeping it between steps spares them an
// allocation. Throws std::invalid_argument when the cache is empty.
// Below decode_split_min_bytes of cache, the cache is often still held by the caches of the core
// that wrote it, which reads it faster alone than two cores do; above it, whether two cores read
// faster depends on the machine, and the stream measures it (core/model/decode_split_choice.hpp).
inline constexpr std::size_t decode_split_min_bytes = std::size_t(8) << 20;
template <class T>
void causal_attention_decode(T* out /*(C)*/, const T* q /*(C)*/, const KvCache<T>& cache, std::vector<T>& partials,
                             WorkerPool* pool = nullptr, std::size_t split_min_bytes = decode_split_min_bytes);

}  // namespace aaren
