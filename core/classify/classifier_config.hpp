#pragma once
// The architecture of the classifier (core/classify/classifier_model.hpp).
#include <optional>
#include <string_view>

#include "core/model/model_config.hpp"

namespace aaren {

enum class ClassifierPooling { mean, last };
std::string_view to_string(ClassifierPooling pooling);  // "mean", "last"
std::optional<ClassifierPooling> classifier_pooling_from_string(std::string_view name);

struct ClassifierConfig {
  // The shared blocks: kind, d_model, heads, layers, d_ff; seq_len is the longest series the model
  // takes (its capacity); channels is C, the values per step. horizon is not used.
  ModelConfig backbone;
  int classes = 2;                                   // K >= 2
  ClassifierPooling pooling = ClassifierPooling::mean;
  bool instance_norm = false;                        // per-series instance norm over the steps
  double label_smoothing = 0;                        // eps in [0, 1)

  // Throws std::invalid_argument naming the setting ("classes must be at least 2, got 1").
  void validate() const;
};

}  // namespace aaren
