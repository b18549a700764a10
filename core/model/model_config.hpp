#pragma once
// The architecture of the three model families (docs/DESIGN.md section 4): identical but for the
// mixer. Aaren (softmax attention of a learned constant query, as a scan), the Transformer (causal
// softmax attention, a KV cache when streaming) and the linear Transformer (Katharopoulos et al.
// 2020: causal linear attention with phi = elu + 1, a constant (S, z) state when streaming).
#include <optional>
#include <string>
#include <string_view>

namespace aaren {

enum class ModelKind { aaren, transformer, linear };
inline constexpr ModelKind kModelKinds[] = {ModelKind::aaren, ModelKind::transformer, ModelKind::linear};

std::string_view to_string(ModelKind kind);  // "aaren", "transformer", "linear": files and options
std::optional<ModelKind> model_kind_from_string(std::string_view name);
// For people: "Aaren", "Transformer", "linear Transformer".
std::string_view model_name(ModelKind kind);
// "an Aaren model", "a Transformer classifier", "a linear Transformer event model".
std::string model_noun_phrase(ModelKind kind, std::string_view noun);

struct ModelConfig {
  ModelKind kind = ModelKind::aaren;
  int d_model = 64;
  int heads = 4;
  int layers = 2;
  int d_ff = 256;
  int seq_len = 96;   // look-back T
  int horizon = 96;   // H
  int channels = 1;   // C, the input's channels
  // Features MS (core/data/forecast_features.hpp): the one input channel the head forecasts, whose
  // window statistics de-normalize it; -1 (M, S): every channel is forecast.
  int target_channel = -1;

  int d_head() const { return d_model / heads; }
  // K, the channels forecast: C, or 1 for features MS. The head outputs (horizon, K).
  int outputs() const { return target_channel < 0 ? channels : 1; }
  // The first input channel the forecast's de-normalization reads: 0, or the target's.
  int first_output_channel() const { return target_channel < 0 ? 0 : target_channel; }
  // Throws std::invalid_argument naming the setting ("--heads 3 does not divide --d-model 64").
  void validate() const;
};

}  // namespace aaren
