#pragma once
// The architecture of the classifier (core/classify/classifier_model.hpp).
#include <cstddef>
#include <optional>
#include <string_view>

#include "core/classify/augmentation.hpp"
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
  ClassifyAugmentation augmentation;                 // of the training cases only
  // An ensemble: this many classifiers, trained side by side on the same batches from their own
  // initial weights; the class probabilities are their mean (1 to kMostMembers).
  int members = 1;
  static constexpr int kMostMembers = 32;
  // Parameters of one member: the layout's total over members.
  std::size_t member_parameters(std::size_t layout_total) const { return layout_total / std::size_t(members); }

  // Throws std::invalid_argument naming the setting ("classes must be at least 2, got 1").
  void validate() const;
};

}  // namespace aaren
