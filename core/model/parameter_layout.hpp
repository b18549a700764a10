#pragma once
// Every parameter of a model lives in one flat buffer; this layout names the views into it with
// PyTorch-style names (docs/DESIGN.md section 4), so AdamW is one loop, a device copy is one memcpy and
// a checkpoint loads into an equivalent PyTorch module by name.
//
// Three models share the blocks (core/model/backbone.hpp) and differ at their ends:
//   forecasting: embed.{weight,bias}, blocks.*, ln_f.*, head.{weight,bias}
//   classifier:  embed.{weight,bias}, blocks.*, ln_f.*, head.{weight,bias} (head (classes, d_model))
//   events:      embed.{weight,bias}, mark_embed.weight (marked logs only), blocks.*, ln_f.*,
//                time_head.{weight,bias}, mark_head.{weight,bias} (marked logs only)
//   decision:    embed_timestep.weight, embed_return.*, embed_state.* (the embed offsets),
//                embed_action.*, embed_ln.*, blocks.*, ln_f.*, predict_action.* (the head offsets)
// The offsets of the other model's parts are kNone.
//
// Weight decay (AdamW decays the entries of two or more dimensions): the Linear weights of all
// models and the mark embedding table are decayed; biases, LayerNorm parameters and Aaren's q0
// are not. The mark embedding is decayed like the embedding Linear it is added to, which keeps the
// two input terms on one scale.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/model_config.hpp"

namespace aaren {

struct ClassifierConfig;
struct EventModelConfig;
namespace rl {
struct DecisionConfig;
}

struct ParameterEntry {
  std::string name;
  std::vector<std::int64_t> shape;
  std::size_t offset = 0;
  std::size_t size = 0;
};

// Offsets into the flat buffer, by role. `q0` is kNone for the Transformer.
struct BlockOffsets {
  std::size_t ln1_w, ln1_b;
  std::size_t q0, wq_w, wq_b, wk_w, wk_b, wv_w, wv_b, wo_w, wo_b;
  std::size_t ln2_w, ln2_b;
  std::size_t fc1_w, fc1_b, fc2_w, fc2_b;
};

class ParameterLayout {
 public:
  static constexpr std::size_t kNone = std::size_t(-1);

  // The forecasting model.
  explicit ParameterLayout(const ModelConfig& config);
  // The event model (core/events/event_model.hpp). Throws std::invalid_argument for a bad config.
  static ParameterLayout for_events(const EventModelConfig& config);
  // The classifier (core/classify/classifier_model.hpp); with config.members > 1, that many
  // classifiers one after another ("members.0.embed.weight", ...), the role offsets the first's.
  // Throws std::invalid_argument for a bad config.
  static ParameterLayout for_classifier(const ClassifierConfig& config);
  // The Decision Transformer (core/rl/decision_transformer.hpp). Throws std::invalid_argument for a bad config.
  static ParameterLayout for_decision(const rl::DecisionConfig& config);

  const std::vector<ParameterEntry>& entries() const { return entries_; }
  std::size_t total() const { return total_; }
  std::size_t block_total(int layer) const;  // parameters of one block (for `aaren params`)

  std::size_t embed_w, embed_b;
  std::size_t mark_embed = kNone;  // events with marks: (marks, d_model)
  std::vector<BlockOffsets> blocks;
  std::size_t lnf_w, lnf_b;
  // Forecasting: (horizon * K, d_model), (horizon * K), K = ModelConfig::outputs(); classifier: (classes, d_model), (classes).
  std::size_t head_w = kNone, head_b = kNone;
  // Events: the time head (3 K, d_model), (3 K); with marks the mark head (marks, d_model), (marks).
  std::size_t time_head_w = kNone, time_head_b = kNone, mark_head_w = kNone, mark_head_b = kNone;
  // Decision Transformer: embed_w/embed_b embed the state and head_w/head_b predict the action;
  // the return-to-go (d_model, 1), the action (d_model, A), the timestep table (max_timestep,
  // d_model) and the LayerNorm of every embedded token (d_model).
  std::size_t return_embed_w = kNone, return_embed_b = kNone, action_embed_w = kNone, action_embed_b = kNone;
  std::size_t timestep_embed = kNone, embed_ln_w = kNone, embed_ln_b = kNone;

 private:
  ParameterLayout() = default;
  std::size_t add(const std::string& name, std::vector<std::int64_t> shape);
  void add_blocks_and_final_norm(const ModelConfig& config);
  std::vector<ParameterEntry> entries_;
  std::size_t total_ = 0;
};

}  // namespace aaren
