#pragma once
// The paper's Figure 1 on real models: an Aaren model and a Transformer of the same size (the
// core's ForecastStream, docs/DESIGN.md section 4) take the same tokens one at a time, and for every
// new token the run records what each keeps in memory (the stream's own state size) and how many
// attention scores q.k each computes for it: Aaren updates one (m, u, w) per head and layer, the
// Transformer attends with the new token's query over every cached token, a new RNN each time.
#include <vector>

#include "core/model/model_config.hpp"

namespace aaren::ui {

struct StreamTokenCost {
  long aarenScores = 0;        // q.k computed for this token: layers x heads
  long transformerScores = 0;  // layers x heads x tokens seen
  long aarenFloats = 0;        // state held after this token
  long transformerFloats = 0;  // the KV cache after this token
};

class StreamRun {
 public:
  StreamRun() = default;
  // Streams `series` (one channel) through both models with random weights of `config`'s size.
  StreamRun(const ModelConfig& config, const std::vector<float>& series);

  const ModelConfig& config() const { return config_; }
  int tokens() const { return int(costs_.size()); }
  const StreamTokenCost& cost(int token) const { return costs_[std::size_t(token - 1)]; }  // 1-based
  long aarenScoresThrough(int token) const;
  long transformerScoresThrough(int token) const;

 private:
  ModelConfig config_;
  std::vector<StreamTokenCost> costs_;
};

// The architecture Figure 1 uses when no trained model is loaded: the core's defaults.
ModelConfig defaultFigureModel();

}  // namespace aaren::ui
