#pragma once
// The shared blocks (core/model/backbone.hpp) run as an RNN: one embedded token at a time.
//   Aaren keeps, per layer and head, the (m, u, w) summary of every token seen: d_model + 2 H
//   numbers per layer whatever the number of tokens, and updates it in O(d) per token.
//   The linear Transformer keeps, per layer and head, the (S, z) sums of its linear attention
//   (core/attention/linear_attention.hpp): d_head^2 + d_head numbers per head whatever the number of
//   tokens (twice that in float, with their compensation terms), updated in O(d_head^2) per token.
//   The Transformer keeps a KV cache that grows by 2 d_model numbers per layer per token, and
//   attends over all of it for every new token: a read of the whole cache, laid out so that the
//   step runs at the memory's read bandwidth (core/nn/kv_cache.hpp). Once the cache is large, the
//   stream measures whether splitting the read among the cores pays (decode_split_choice.hpp)
//   and, where it does, starts a pool of one worker per hardware thread for it.
// After t steps, hidden() equals row t - 1 of backbone_forward's output on the same embedded rows.
#include <cstddef>
#include <memory>
#include <vector>

#include "core/attention/linear_attention.hpp"
#include "core/model/decode_split_choice.hpp"
#include "core/model/model_config.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/nn/kv_cache.hpp"
#include "core/util/worker_pool.hpp"

namespace aaren {

template <class T>
class BackboneStream {
 public:
  // `layout` and `params` must outlive the stream. `reserve_tokens` pre-sizes the Transformer's
  // KV cache so steps up to that many tokens never allocate.
  BackboneStream(const ModelConfig& config, const ParameterLayout& layout, const T* params, long reserve_tokens = 0);

  // Forgets every token seen.
  void reset();

  // Takes one embedded token (d_model, positional encoding included) and returns the last block's
  // hidden state (d_model).
  const T* step(const T* embedded);
  // What every task's stream does: adds the positional encoding of the next token to `embedded`
  // (d_model, changed in place), then steps.
  const T* step_at_next_position(T* embedded);
  // The final layer norm (ln_f) of hidden(), which every task's head reads (d_model); valid until
  // the next call.
  const T* normalized_hidden();

  const T* hidden() const { return h_.data(); }
  long tokens() const { return t_; }
  // Bytes of the state the stream keeps: Aaren's (m, u, w), the linear Transformer's (S, z), or the
  // KV cache in use.
  std::size_t state_bytes() const;

 private:
  void aaren_layer(int l);
  // The token's query, key and value (q_, k_, v_) of layer l's projections.
  void project_token(int l);
  void transformer_layer(int l);
  void linear_layer(int l);

  ModelConfig config_;
  const ParameterLayout& layout_;
  const T* p_;
  long t_ = 0;
  std::vector<T> h_, ln_, ln_stat_, k_, v_, q_, att_, branch_, pre_, act_;
  std::vector<std::vector<T>> query_;              // Aaren: per layer, q = Wq q0 + bq (a constant)
  std::vector<T> m_, u_, w_;                       // Aaren: per layer, (H), (H), (H, d_head)
  std::vector<KvCache<T>> kv_cache_;               // Transformer: per layer
  std::vector<LinearAttentionState<T>> linear_;    // linear: per layer, per head (layer-major)
  std::vector<T> decode_partials_;                 // the decode's scratch, kept so steps do not allocate
  std::unique_ptr<WorkerPool> decode_pool_;        // started when a split is first tried
  DecodeSplitChoice split_choice_;
  DecodeSplitChoice::Plan decode_plan_;            // this step's, for every layer
  double decode_seconds_ = 0;                      // this step's decodes, when the plan is timed
  std::vector<T> position_, final_ln_, final_ln_stat_;
};

}  // namespace aaren
