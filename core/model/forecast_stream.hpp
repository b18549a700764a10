#pragma once
// The forecasting model run as an RNN: one input row at a time. The blocks run in a
// BackboneStream (Aaren's O(1) (m, u, w) state or the Transformer's growing KV cache); this class
// adds the model's ends: normalization, embedding and positional encoding in, final LayerNorm and
// head out.
// After t steps, hidden() equals row t - 1 of the parallel forward's output on the same rows.
#include <cstddef>
#include <vector>

#include "core/model/backbone_stream.hpp"
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

  // The forecast (horizon, K) from the latest hidden state, in the input's units (K = outputs()).
  void forecast(T* y /*(horizon, K)*/);

  const T* hidden() const { return backbone_.hidden(); }
  long tokens() const { return backbone_.tokens(); }
  // Bytes of the state that grows with the stream: Aaren's (m, u, w), or the KV cache in use.
  std::size_t state_bytes() const { return backbone_.state_bytes(); }

 private:
  ModelConfig config_;
  const ParameterLayout& layout_;
  const T* p_;
  BackboneStream<T> backbone_;
  std::vector<T> mean_, sigma_;
  std::vector<T> row_, embedded_, head_;
};

}  // namespace aaren
