#include "core/nn/causal_attention.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/nn/eigen_maps.hpp"
#include "core/scan/state.hpp"

namespace aaren {

namespace {

void check_heads(int C, int H) {
  if (H < 1 || C % H != 0)
    throw std::invalid_argument("causal attention: the model width " + std::to_string(C) +
                                " cannot be split into " + std::to_string(H) +
                                " heads; choose a number of heads that divides it");
}

// x_i = exp(x_i - shift) for i < n; returns their sum. Vectorized over fixed-size chunks copied into
// an aligned local array: on an arbitrary buffer Eigen would pick a scalar prefix (std::exp) and a
// vector body (its own exp, which can differ in the last bit) by the buffer's address, so results
// would depend on where the caller's buffers lie. Here they depend on n alone: the forward and the
// decode, which pass different buffers, agree to the last bit.
template <class T>
T exp_in_place_and_sum(T* x, int n, T shift) {
  constexpr int chunk_size = 16;
  using Chunk = Eigen::Array<T, chunk_size, 1>;
  T sum = 0;
  int i = 0;
  for (; i + chunk_size <= n; i += chunk_size) {
    const Chunk e = (Eigen::Map<const Chunk>(x + i) - shift).exp();
    Eigen::Map<Chunk>(x + i) = e;
    sum += e.sum();
  }
  for (; i < n; ++i) sum += (x[i] = std::exp(x[i] - shift));
  return sum;
}

// The softmax weights of one query of one head over keys 0..n-1, written to weights (n).
template <class T>
void softmax_weights(T* weights, const T* q_head, const T* k_head /*(n, d_head), stride C*/, int n, int d_head,
                     int C, T scale) {
  VectorMap<T> w(weights, n);
  w.noalias() = scale * (ConstColumnSliceMap<T>(k_head, n, d_head, Eigen::OuterStride<>(C)) *
                         ConstVectorMap<T>(q_head, d_head));
  const T max_score = w.maxCoeff();  // subtracted so that exp never overflows
  w *= T(1) / exp_in_place_and_sum(weights, n, max_score);
}

// The cache is read block by block of rows, in memory order; every head of a group works on a block
// while it is in cache, so K and V stream through memory once whatever the number of heads. Each
// head keeps a running softmax over the blocks seen so far (max score, sum of weights, weighted sum
// of values in out), rescaled whenever a block raises the max: the recurrence of attention as an RNN,
// one block at a time.
constexpr int decode_block_rows = 64;
constexpr int decode_head_group = 16;

}  // namespace

template <class T>
void causal_attention_decode(T* out, T* scores_scratch, const T* q, const T* k_cache, const T* v_cache,
                             int t_plus_1, int C, int H) {
  check_heads(C, H);
  if (t_plus_1 < 1)
    throw std::invalid_argument("causal attention decode: the KV cache holds " + std::to_string(t_plus_1) +
                                " tokens; it must hold at least the new token");
  const int d_head = C / H;
  const T scale = T(1) / std::sqrt(T(d_head));
  const Eigen::OuterStride<> stride(C);
  std::fill(out, out + C, T(0));
  for (int first_head = 0; first_head < H; first_head += decode_head_group) {
    const int heads = std::min(decode_head_group, H - first_head);
    T max_score[decode_head_group];
    T weight_sum[decode_head_group];
    std::fill(max_score, max_score + heads, negative_infinity<T>());
    std::fill(weight_sum, weight_sum + heads, T(0));
    for (int first_row = 0; first_row < t_plus_1; first_row += decode_block_rows) {
      const int rows = std::min(decode_block_rows, t_plus_1 - first_row);
      for (int g = 0; g < heads; ++g) {
        const long column = long(first_head + g) * d_head;
        const long offset = long(first_row) * C + column;
        VectorMap<T> scores(scores_scratch, rows);
        scores.noalias() = scale * (ConstColumnSliceMap<T>(k_cache + offset, rows, d_head, stride) *
                                    ConstVectorMap<T>(q + column, d_head));
        const T new_max = std::max(max_score[g], scores.maxCoeff());
        const T rescale = std::exp(max_score[g] - new_max);  // exp(-inf) = 0 before the first block
        weight_sum[g] = weight_sum[g] * rescale + exp_in_place_and_sum(scores_scratch, rows, new_max);
        VectorMap<T> out_head(out + column, d_head);
        out_head *= rescale;
        out_head.noalias() += ConstColumnSliceMap<T>(v_cache + offset, rows, d_head, stride).transpose() * scores;
        max_score[g] = new_max;
      }
    }
    for (int g = 0; g < heads; ++g)
      VectorMap<T>(out + long(first_head + g) * d_head, d_head) *= T(1) / weight_sum[g];
  }
}

// Row t's output is the decode of token t against tokens 0..t, so a decoded token reproduces the
// forward exactly; the weights kept for the backward come from a plain softmax of each row.
template <class T>
void causal_attention_forward(T* out, T* probs, const T* q, const T* k, const T* v, int L, int C, int H) {
  check_heads(C, H);
  const int d_head = C / H;
  const T scale = T(1) / std::sqrt(T(d_head));
  for (int t = 0; t < L; ++t) {
    // Head 0's row of probs is free until its weights are written just below.
    causal_attention_decode(out + long(t) * C, probs + long(t) * L, q + long(t) * C, k, v, t + 1, C, H);
    for (int h = 0; h < H; ++h) {
      T* p = probs + (long(h) * L + t) * L;
      const long column = long(h) * d_head;
      softmax_weights(p, q + long(t) * C + column, k + column, t + 1, d_head, C, scale);
      std::fill(p + t + 1, p + L, T(0));
    }
  }
}

// Row t of head h, with p its softmax weights and g = dout_t (head columns):
//   dp_i = g . v_i,  ds_i = p_i (dp_i - sum_j p_j dp_j) scale,
//   dq_t = sum_i ds_i k_i,  dk_i += ds_i q_t,  dv_i += p_i g.
template <class T>
void causal_attention_backward(T* dq, T* dk, T* dv, T* dprobs_scratch, const T* dout, const T* q, const T* k,
                               const T* v, const T* probs, int L, int C, int H) {
  check_heads(C, H);
  const int d_head = C / H;
  const T scale = T(1) / std::sqrt(T(d_head));
  std::fill(dk, dk + long(L) * C, T(0));
  std::fill(dv, dv + long(L) * C, T(0));
  for (int h = 0; h < H; ++h)
    for (int t = 0; t < L; ++t) {
      const int n = t + 1;
      const long column = long(h) * d_head;
      const Eigen::OuterStride<> stride(C);
      const ConstColumnSliceMap<T> keys(k + column, n, d_head, stride);
      const ConstColumnSliceMap<T> values(v + column, n, d_head, stride);
      ColumnSliceMap<T> dkeys(dk + column, n, d_head, stride);
      ColumnSliceMap<T> dvalues(dv + column, n, d_head, stride);
      const ConstVectorMap<T> p(probs + (long(h) * L + t) * L, n);
      const ConstVectorMap<T> g(dout + long(t) * C + column, d_head);
      const ConstVectorMap<T> q_row(q + long(t) * C + column, d_head);
      VectorMap<T> ds(dprobs_scratch, n);
      ds.noalias() = values * g;
      const T p_dot_dp = p.dot(ds);
      ds = scale * (p.array() * (ds.array() - p_dot_dp));
      VectorMap<T>(dq + long(t) * C + column, d_head).noalias() = keys.transpose() * ds;
      dkeys.noalias() += ds * q_row.transpose();
      dvalues.noalias() += p * g.transpose();
    }
}

#define AAREN_INSTANTIATE(T)                                                                              \
  template void causal_attention_forward<T>(T*, T*, const T*, const T*, const T*, int, int, int);        \
  template void causal_attention_backward<T>(T*, T*, T*, T*, const T*, const T*, const T*, const T*,     \
                                             const T*, int, int, int);                                   \
  template void causal_attention_decode<T>(T*, T*, const T*, const T*, const T*, int, int, int);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
