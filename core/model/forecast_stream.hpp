#pragma once
// The forecasting model run as an RNN: one input row at a time.
//   Aaren keeps, per layer and head, the (m, u, w) summary of every token seen: d_model + 2 H
//   numbers per layer whatever the number of tokens, and updates it in O(d) per token.
//   The Transformer keeps a KV cache that grows by 2 d_model numbers per layer per token, and
//   attends over all of it for every new token.
// After t steps, hidden() equals row t - 1 of the parallel forward's output on the same rows.
#include <cstddef>
#include <vector>

#include "core/model/model_config.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

template <class T>
class ForecastStream {
 public:
  // `params` must outlive the stream. `reserve_tokens` pre-sizes the Transformer's KV cache so
  // steps up to that many tokens never allocate.
  ForecastStream(const ModelConfig& config, const ParameterLayout& layout, const T* params, long reserve_tokens = 0);

  // Starts a new sequence. Input rows are normalized with these per-channel statistics (the
  // forecast window's instance normalization); without them rows pass through unchanged.
  void reset(const T* mean /*(C) or nullptr*/ = nullptr, const T* sigma /*(C) or nullptr*/ = nullptr);

  // Takes one input row (C channels) and returns the last block's hidden state (d_model).
  const T* step(const T* x /*(C)*/);

  // The forecast (horizon, C) from the latest hidden state, in the input's units.
  void forecast(T* y /*(horizon, C)*/);

  const T* hidden() const { return h_.data(); }
  long tokens() const { return t_; }
  // Bytes of the state that grows with the stream: Aaren's (m, u, w), or the KV cache in use.
  std::size_t state_bytes() const;

 private:
  void aaren_layer(int l);
  void transformer_layer(int l);

  ModelConfig config_;
  const ParameterLayout& layout_;
  const T* p_;
  long t_ = 0;
  std::vector<T> mean_, sigma_;
  std::vector<T> h_, ln_, ln_stat_, k_, v_, q_, att_, branch_, pre_, act_, row_, head_;
  std::vector<std::vector<T>> query_;          // Aaren: per layer, q = Wq q0 + bq (a constant)
  std::vector<T> m_, u_, w_;                    // Aaren: per layer, (H), (H), (H, d_head)
  std::vector<std::vector<T>> k_cache_, v_cache_;  // Transformer: per layer, (tokens, d_model)
  std::vector<T> scores_;
};

}  // namespace aaren
