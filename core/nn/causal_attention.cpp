#include "core/nn/causal_attention.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

#include "core/nn/eigen_maps.hpp"
#include "core/nn/tiled_product.hpp"
#include "core/scan/state.hpp"
#include "core/util/worker_pool.hpp"

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

// The scores x (n) become their softmax weights, in place.
template <class T>
void softmax_in_place(T* x, int n) {
  VectorMap<T> w(x, n);
  const T max_score = w.maxCoeff();  // subtracted so that exp never overflows
  w *= T(1) / exp_in_place_and_sum(x, n, max_score);
}

// The cache is read block by block of rows, in memory order; every head of a group works on a block
// while it is in cache, so K and V stream through memory once whatever the number of heads. Each
// head keeps a running softmax over the blocks seen so far (max score, sum of weights, weighted sum
// of values in out), rescaled whenever a block raises the max: the recurrence of attention as an RNN,
// one block at a time.
constexpr int decode_block_rows = 64;
constexpr int decode_head_group = 16;

// Folds tiles [0, tile_count) of one head's run into its running (m, u, w): w (d_head) is
// unnormalized and m starts at -inf. The last tile holds last_tile_tokens tokens; its other slots
// are masked out of the softmax. q_scaled is the head's query times 1 / sqrt(d_head).
// DH > 0 is d_head known at compile time: the tile's scores and w then live in vector registers,
// so a token costs a load and a multiply-add per vector of its key and of its value, and the step
// runs as fast as the caches deliver the tiles (about 100 GB/s from the second-level cache of the
// machine the README measures, several times its memory's rate). DH = 0 takes d_head at run time
// and adds four values per pass over w.
template <class T, int DH>
void fold_tiles(T& m_out, T& u_out, T* w_out, const T* q_scaled, const T* __restrict tiles, long tile_count,
                int last_tile_tokens, int d_head_at_run_time) {
  constexpr int B = kv_tile_tokens;
  // Locals, written back once: the caller's states of neighbouring ranges share cache lines, and
  // other workers write them.
  T m = m_out, u = u_out;
  const int d_head = DH > 0 ? DH : d_head_at_run_time;
  T q_local[DH > 0 ? DH : 1], w_local[DH > 0 ? DH : 1];
  const T* __restrict q = q_scaled;
  T* __restrict w = w_out;
  if constexpr (DH > 0) {
    std::copy(q_scaled, q_scaled + DH, q_local);
    std::copy(w_out, w_out + DH, w_local);
    q = q_local;
    w = w_local;
  }
  Eigen::Array<T, B, 1> scores;
  T* __restrict s = scores.data();
  for (long tile = 0; tile < tile_count; ++tile) {
    const T* keys = tiles + tile * 2 * B * d_head;  // (d_head, B)
    const T* values = keys + long(d_head) * B;      // (B, d_head)
    const int tokens = tile + 1 == tile_count ? last_tile_tokens : B;
    scores.setZero();
    for (int j = 0; j < d_head; ++j) {
      const T qj = q[j];
      const T* key_row = keys + long(j) * B;
      for (int b = 0; b < B; ++b) s[b] += qj * key_row[b];
    }
    for (int b = tokens; b < B; ++b) s[b] = negative_infinity<T>();
    const T tile_max = scores.maxCoeff();
    if (tile_max > m) {  // rescale what came before; exp(-inf) = 0 before the first tile
      const T rescale = std::exp(m - tile_max);
      u *= rescale;
      for (int j = 0; j < d_head; ++j) w[j] *= rescale;
      m = tile_max;
    }
    scores = (scores - m).exp();
    u += scores.sum();
    if constexpr (DH > 0) {
      // A fixed-size Eigen row is a few vector registers: the sum stays in them for the tile.
      using Row = Eigen::Array<T, DH, 1>;
      Eigen::Map<Row> w_row(w);
      Row sum = w_row;
      for (int b = 0; b < tokens; ++b) sum += s[b] * Eigen::Map<const Row>(values + long(b) * DH);
      w_row = sum;
    } else {
      int b = 0;
      for (; b + 4 <= tokens; b += 4) {
        const T* v = values + long(b) * d_head;
        const T p0 = s[b], p1 = s[b + 1], p2 = s[b + 2], p3 = s[b + 3];
        for (int j = 0; j < d_head; ++j)
          w[j] += p0 * v[j] + p1 * v[d_head + j] + p2 * v[2 * d_head + j] + p3 * v[3 * d_head + j];
      }
      for (; b < tokens; ++b) {
        const T p = s[b];
        const T* value = values + long(b) * d_head;
        for (int j = 0; j < d_head; ++j) w[j] += p * value[j];
      }
    }
  }
  if constexpr (DH > 0) std::copy(w_local, w_local + DH, w_out);
  m_out = m;
  u_out = u;
}

// One head's (m, u, w) over tiles [first, last) of the cache, which may span chunks.
template <class T>
void fold_tile_range(T& m, T& u, T* w, const T* q_scaled, const KvCache<T>& cache, int head, long first,
                     long last) {
  const long tiles_per_chunk = cache.chunk_tokens() / kv_tile_tokens;
  const long total_tiles = (cache.tokens() + kv_tile_tokens - 1) / kv_tile_tokens;
  const int tokens_in_last_tile = int(cache.tokens() - (total_tiles - 1) * kv_tile_tokens);
  m = negative_infinity<T>();
  u = T(0);
  std::fill(w, w + cache.d_head(), T(0));
  for (long tile = first; tile < last;) {
    const long chunk = tile / tiles_per_chunk, in_chunk = tile % tiles_per_chunk;
    const long count = std::min(last - tile, tiles_per_chunk - in_chunk);
    const int tokens_in_final = tile + count == total_tiles ? tokens_in_last_tile : kv_tile_tokens;
    const T* tiles = cache.head_tiles(chunk, head) + in_chunk * cache.tile_size();
    switch (cache.d_head()) {  // the widths of common models, and any other at run time
      case 16: fold_tiles<T, 16>(m, u, w, q_scaled, tiles, count, tokens_in_final, 16); break;
      case 32: fold_tiles<T, 32>(m, u, w, q_scaled, tiles, count, tokens_in_final, 32); break;
      case 64: fold_tiles<T, 64>(m, u, w, q_scaled, tiles, count, tokens_in_final, 64); break;
      case 128: fold_tiles<T, 128>(m, u, w, q_scaled, tiles, count, tokens_in_final, 128); break;
      default: fold_tiles<T, 0>(m, u, w, q_scaled, tiles, count, tokens_in_final, cache.d_head());
    }
    tile += count;
  }
}

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

template <class T>
void causal_attention_decode(T* out, const T* q, const KvCache<T>& cache, std::vector<T>& partials,
                             WorkerPool* pool, std::size_t split_min_bytes) {
  if (cache.tokens() < 1)
    throw std::invalid_argument("causal attention decode: the KV cache is empty; it must hold at least the new token");
  const int C = cache.d_model(), H = cache.heads(), d_head = cache.d_head();
  const long tiles = (cache.tokens() + kv_tile_tokens - 1) / kv_tile_tokens;
  const bool split = pool && pool->size() > 1 && cache.bytes_in_use() >= split_min_bytes;
  // Two ranges a worker per head, so a worker slowed by other work leaves its second range to the
  // others.
  const int ranges = split ? int(std::min<long>(2L * pool->size(), tiles)) : 1;
  // partials: the scaled query (C), then one (m, u, w) of d_head + 2 values per range and head,
  // padded to whole cache lines so that workers filling neighbouring states share few lines.
  constexpr long line = 64 / long(sizeof(T));
  const long state_size = (d_head + 2 + line - 1) / line * line;
  partials.resize(std::size_t(C + long(ranges) * H * state_size));
  const T scale = T(1) / std::sqrt(T(d_head));
  for (int j = 0; j < C; ++j) partials[std::size_t(j)] = q[j] * scale;
  const auto fold_range = [&](int task) {
    const int head = task % H, range = task / H;
    T* state = partials.data() + C + long(task) * state_size;
    fold_tile_range(state[0], state[1], state + 2, partials.data() + long(head) * d_head, cache, head,
                    tiles * range / ranges, tiles * (range + 1) / ranges);
  };
  if (ranges == 1)
    for (int task = 0; task < H; ++task) fold_range(task);
  else
    pool->run(ranges * H, [&](int task, int) { fold_range(task); });
  for (int head = 0; head < H; ++head) {
    T* first = partials.data() + C + long(head) * state_size;
    for (int range = 1; range < ranges; ++range) {
      const T* next = partials.data() + C + (long(range) * H + head) * state_size;
      combine(first[0], first[1], std::span<T>(first + 2, std::size_t(d_head)), first[0], first[1],
              std::span<const T>(first + 2, std::size_t(d_head)), next[0], next[1],
              std::span<const T>(next + 2, std::size_t(d_head)));
    }
    for (int j = 0; j < d_head; ++j) out[long(head) * d_head + j] = first[2 + j] / first[1];
  }
}

// Per head, as matrix products at the machine's matrix rate (tiled: core/nn/tiled_product.hpp):
// the (L, L) scores Q K^T scale, a softmax of each row t over its first t + 1 entries (the rest
// set to 0; kept for the backward), then the output P V. The products cover the whole square, twice
// the causal operations, and still beat L products of a row. The streaming decode computes row t
// its own way and equals it to rounding (tests/core/tst_causal_attention.cpp).
template <class T>
void causal_attention_forward(T* out, T* probs, const T* q, const T* k, const T* v, int L, int C, int H) {
  check_heads(C, H);
  const int d_head = C / H;
  const T scale = T(1) / std::sqrt(T(d_head));
  const Eigen::OuterStride<> stride(C);
  for (int h = 0; h < H; ++h) {
    const long column = long(h) * d_head;
    MatrixMap<T> p(probs + long(h) * L * L, L, L);
    p.setZero();
    add_product_tiled(p, ConstColumnSliceMap<T>(q + column, L, d_head, stride),
                      ConstColumnSliceMap<T>(k + column, L, d_head, stride).transpose());
    p *= scale;
    for (int t = 0; t < L; ++t) {
      T* row = p.row(t).data();
      softmax_in_place(row, t + 1);
      std::fill(row + t + 1, row + L, T(0));
    }
    ColumnSliceMap<T> out_h(out + column, L, d_head, stride);
    out_h.setZero();
    add_product_tiled(out_h, p, ConstColumnSliceMap<T>(v + column, L, d_head, stride));
  }
}

// Head h, with P its (L, L) softmax weights (0 above the diagonal), G = dout's head columns:
//   dP = G V^T,  dS = P o (dP - rowsum(P o dP)) scale,  dQ = dS K,  dK = dS^T Q,  dV = P^T G,
// as five matrix products (tiled, so that no buffer is taken from the heap: core/nn/tiled_product.hpp);
// dS is 0 above the diagonal because P is, so no entry there leaks in.
template <class T>
void causal_attention_backward(T* dq, T* dk, T* dv, T* dprobs_scratch, const T* dout, const T* q, const T* k,
                               const T* v, const T* probs, int L, int C, int H) {
  check_heads(C, H);
  const int d_head = C / H;
  const T scale = T(1) / std::sqrt(T(d_head));
  const Eigen::OuterStride<> stride(C);
  MatrixMap<T> ds(dprobs_scratch, L, L);
  VectorMap<T> p_dot_dp(dprobs_scratch + long(L) * L, L);
  for (int h = 0; h < H; ++h) {
    const long column = long(h) * d_head;
    const ConstMatrixMap<T> p(probs + long(h) * L * L, L, L);
    const ConstColumnSliceMap<T> g(dout + column, L, d_head, stride), q_h(q + column, L, d_head, stride),
        k_h(k + column, L, d_head, stride), v_h(v + column, L, d_head, stride);
    ds.setZero();
    add_product_tiled(ds, g, v_h.transpose());
    p_dot_dp = (p.array() * ds.array()).rowwise().sum();
    ds = scale * (p.array() * (ds.array().colwise() - p_dot_dp.array()));
    ColumnSliceMap<T> dq_h(dq + column, L, d_head, stride), dk_h(dk + column, L, d_head, stride),
        dv_h(dv + column, L, d_head, stride);
    dq_h.setZero();
    dk_h.setZero();
    dv_h.setZero();
    add_product_tiled(dq_h, ds, k_h);
    add_product_tiled(dk_h, ds.transpose(), q_h);
    add_product_tiled(dv_h, p.transpose(), g);
  }
}

#define AAREN_INSTANTIATE(T)                                                                              \
  template void causal_attention_forward<T>(T*, T*, const T*, const T*, const T*, int, int, int);        \
  template void causal_attention_backward<T>(T*, T*, T*, T*, const T*, const T*, const T*, const T*,     \
                                             const T*, int, int, int);                                   \
  template void causal_attention_decode<T>(T*, T*, const T*, const T*, const T*, int, int, int);         \
  template void causal_attention_decode<T>(T*, const T*, const KvCache<T>&, std::vector<T>&, WorkerPool*, \
                                           std::size_t);
AAREN_INSTANTIATE(float)
AAREN_INSTANTIATE(double)
#undef AAREN_INSTANTIATE

}  // namespace aaren
