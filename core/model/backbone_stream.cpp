#include "core/model/backbone_stream.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <span>
#include <thread>

#include "core/nn/causal_attention.hpp"
#include "core/nn/causal_linear_attention.hpp"
#include "core/nn/ffn.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/nn/positional_encoding.hpp"
#include "core/scan/state.hpp"

namespace aaren {

template <class T>
BackboneStream<T>::BackboneStream(const ModelConfig& config, const ParameterLayout& layout, const T* params,
                                  long reserve_tokens)
    : config_(config), layout_(layout), p_(params) {
  const std::size_t d = std::size_t(config.d_model), f = std::size_t(config.d_ff);
  for (auto* buffer : {&h_, &ln_, &k_, &v_, &q_, &att_, &branch_}) buffer->assign(d, T(0));
  pre_.assign(f, T(0));
  act_.assign(f, T(0));
  ln_stat_.assign(2, T(0));
  position_.assign(d, T(0));
  final_ln_.assign(d, T(0));
  final_ln_stat_.assign(2, T(0));
  if (config.kind == ModelKind::aaren) {
    for (int l = 0; l < config.layers; ++l) {
      std::vector<T> q(d);
      const BlockOffsets& b = layout.blocks[std::size_t(l)];
      linear_forward(q.data(), params + b.q0, params + b.wq_w, params + b.wq_b, 1, config.d_model, config.d_model);
      query_.push_back(std::move(q));
    }
  } else if (config.kind == ModelKind::transformer) {
    for (int l = 0; l < config.layers; ++l) {
      kv_cache_.emplace_back(config.d_model, config.heads);
      kv_cache_.back().reserve(reserve_tokens);
    }
  } else {
    for (int i = 0; i < config.layers * config.heads; ++i) linear_.emplace_back(config.d_head(), config.d_head());
  }
  reset();
}

template <class T>
void BackboneStream<T>::reset() {
  t_ = 0;
  const std::size_t heads = std::size_t(config_.heads) * std::size_t(config_.layers);
  m_.assign(heads, -std::numeric_limits<T>::infinity());
  u_.assign(heads, T(0));
  w_.assign(std::size_t(config_.layers) * std::size_t(config_.d_model), T(0));
  for (auto& cache : kv_cache_) cache.clear();
  for (auto& state : linear_) state.clear();
  split_choice_.reset();
  std::fill(h_.begin(), h_.end(), T(0));
}

template <class T>
const T* BackboneStream<T>::step(const T* embedded) {
  const int D = config_.d_model;
  std::copy(embedded, embedded + D, h_.begin());
  if (config_.kind == ModelKind::transformer) {
    // Every layer's cache holds the same number of bytes; the new token's are added below.
    decode_plan_ = split_choice_.next(kv_cache_[0].bytes_in_use() + 2 * std::size_t(D) * sizeof(T));
    decode_seconds_ = 0;
    if (decode_plan_.split && !decode_pool_) {
      if (std::thread::hardware_concurrency() > 1)
        decode_pool_ = std::make_unique<WorkerPool>();
      else
        decode_plan_.split = false;
    }
  }
  for (int l = 0; l < config_.layers; ++l) {
    const BlockOffsets& b = layout_.blocks[std::size_t(l)];
    layernorm_forward(ln_.data(), &ln_stat_[0], &ln_stat_[1], h_.data(), p_ + b.ln1_w, p_ + b.ln1_b, 1, D);
    switch (config_.kind) {
      case ModelKind::aaren: aaren_layer(l); break;
      case ModelKind::transformer: transformer_layer(l); break;
      case ModelKind::linear: linear_layer(l); break;
    }
    linear_forward(branch_.data(), att_.data(), p_ + b.wo_w, p_ + b.wo_b, 1, D, D);
    for (int j = 0; j < D; ++j) h_[std::size_t(j)] += branch_[std::size_t(j)];
    layernorm_forward(ln_.data(), &ln_stat_[0], &ln_stat_[1], h_.data(), p_ + b.ln2_w, p_ + b.ln2_b, 1, D);
    ffn_forward(branch_.data(), pre_.data(), act_.data(), ln_.data(), p_ + b.fc1_w, p_ + b.fc1_b, p_ + b.fc2_w,
                p_ + b.fc2_b, 1, D, config_.d_ff);
    for (int j = 0; j < D; ++j) h_[std::size_t(j)] += branch_[std::size_t(j)];
  }
  if (decode_plan_.timed) split_choice_.record(decode_seconds_);
  ++t_;
  return h_.data();
}

// One new token folded into each head's (m, u, w): the recurrent cell of docs/DESIGN.md section 3.
template <class T>
void BackboneStream<T>::aaren_layer(int l) {
  const int D = config_.d_model, H = config_.heads, dh = D / H;
  const BlockOffsets& b = layout_.blocks[std::size_t(l)];
  linear_forward(k_.data(), ln_.data(), p_ + b.wk_w, p_ + b.wk_b, 1, D, D);
  linear_forward(v_.data(), ln_.data(), p_ + b.wv_w, p_ + b.wv_b, 1, D, D);
  const T scale = T(1) / std::sqrt(T(dh));
  const T* q = query_[std::size_t(l)].data();
  for (int h = 0; h < H; ++h) {
    const std::size_t state = std::size_t(l) * std::size_t(H) + std::size_t(h);
    const std::size_t col = std::size_t(h * dh);
    T* w = w_.data() + std::size_t(l) * std::size_t(D) + col;
    T s = 0;
    for (int j = 0; j < dh; ++j) s += q[col + std::size_t(j)] * k_[col + std::size_t(j)];
    fold_token(m_[state], u_[state], w, scale * s, v_.data() + col, dh);
    for (int j = 0; j < dh; ++j) att_[col + std::size_t(j)] = w[j] / u_[state];
  }
}

template <class T>
void BackboneStream<T>::project_token(int l) {
  const int D = config_.d_model;
  const BlockOffsets& b = layout_.blocks[std::size_t(l)];
  linear_forward(q_.data(), ln_.data(), p_ + b.wq_w, p_ + b.wq_b, 1, D, D);
  linear_forward(k_.data(), ln_.data(), p_ + b.wk_w, p_ + b.wk_b, 1, D, D);
  linear_forward(v_.data(), ln_.data(), p_ + b.wv_w, p_ + b.wv_b, 1, D, D);
}

template <class T>
void BackboneStream<T>::transformer_layer(int l) {
  project_token(l);
  KvCache<T>& cache = kv_cache_[std::size_t(l)];
  cache.append(k_.data(), v_.data());
  // The plan decides; the decode's own threshold is passed as 0 so it never overrules it.
  WorkerPool* pool = decode_plan_.split ? decode_pool_.get() : nullptr;
  const auto start = std::chrono::steady_clock::now();
  causal_attention_decode(att_.data(), q_.data(), cache, decode_partials_, pool, 0);
  if (decode_plan_.timed)
    decode_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One new token added to each head's (S, z), then read by its query: linear attention's recurrent
// step (core/attention/linear_attention.hpp), with the features phi = elu + 1 of the projections.
template <class T>
void BackboneStream<T>::linear_layer(int l) {
  const int D = config_.d_model, H = config_.heads, dh = D / H;
  project_token(l);
  elu_plus_one_forward(q_.data(), std::size_t(D));
  elu_plus_one_forward(k_.data(), std::size_t(D));
  for (int h = 0; h < H; ++h) {
    const std::size_t col = std::size_t(h * dh), n = std::size_t(dh);
    linear_[std::size_t(l) * std::size_t(H) + std::size_t(h)].step(
        std::span<T>(att_.data() + col, n), std::span<const T>(q_.data() + col, n),
        std::span<const T>(k_.data() + col, n), std::span<const T>(v_.data() + col, n));
  }
}

template <class T>
std::size_t BackboneStream<T>::state_bytes() const {
  std::size_t bytes = 0;
  switch (config_.kind) {
    case ModelKind::aaren: return (m_.size() + u_.size() + w_.size()) * sizeof(T);
    case ModelKind::transformer:
      for (const KvCache<T>& cache : kv_cache_) bytes += cache.bytes_in_use();
      return bytes;
    case ModelKind::linear:
      for (const LinearAttentionState<T>& state : linear_) bytes += state.state_bytes();
      return bytes;
  }
  return bytes;
}

template <class T>
const T* BackboneStream<T>::step_at_next_position(T* embedded) {
  const int D = config_.d_model;
  positional_encoding_row(position_.data(), t_, D);
  for (int j = 0; j < D; ++j) embedded[j] += position_[std::size_t(j)];
  return step(embedded);
}

template <class T>
const T* BackboneStream<T>::normalized_hidden() {
  layernorm_forward(final_ln_.data(), &final_ln_stat_[0], &final_ln_stat_[1], h_.data(), p_ + layout_.lnf_w,
                    p_ + layout_.lnf_b, 1, config_.d_model);
  return final_ln_.data();
}

template class BackboneStream<float>;
template class BackboneStream<double>;

}  // namespace aaren
