#include "core/model/parameter_layout.hpp"

#include "core/classify/classifier_config.hpp"
#include "core/events/event_model_config.hpp"
#include "core/rl/decision_config.hpp"

namespace aaren {

std::size_t ParameterLayout::add(const std::string& name, std::vector<std::int64_t> shape) {
  std::size_t size = 1;
  for (const auto d : shape) size *= std::size_t(d);
  entries_.push_back({name, std::move(shape), total_, size});
  total_ += size;
  return entries_.back().offset;
}

void ParameterLayout::add_blocks_and_final_norm(const ModelConfig& config) {
  const std::int64_t d = config.d_model, f = config.d_ff;
  for (int l = 0; l < config.layers; ++l) {
    const std::string p = "blocks." + std::to_string(l) + ".";
    BlockOffsets b{};
    b.ln1_w = add(p + "ln1.weight", {d});
    b.ln1_b = add(p + "ln1.bias", {d});
    b.q0 = config.kind == ModelKind::aaren ? add(p + "mixer.q0", {d}) : kNone;
    b.wq_w = add(p + "mixer.wq.weight", {d, d});
    b.wq_b = add(p + "mixer.wq.bias", {d});
    b.wk_w = add(p + "mixer.wk.weight", {d, d});
    b.wk_b = add(p + "mixer.wk.bias", {d});
    b.wv_w = add(p + "mixer.wv.weight", {d, d});
    b.wv_b = add(p + "mixer.wv.bias", {d});
    b.wo_w = add(p + "mixer.wo.weight", {d, d});
    b.wo_b = add(p + "mixer.wo.bias", {d});
    b.ln2_w = add(p + "ln2.weight", {d});
    b.ln2_b = add(p + "ln2.bias", {d});
    b.fc1_w = add(p + "ffn.fc1.weight", {f, d});
    b.fc1_b = add(p + "ffn.fc1.bias", {f});
    b.fc2_w = add(p + "ffn.fc2.weight", {d, f});
    b.fc2_b = add(p + "ffn.fc2.bias", {d});
    blocks.push_back(b);
  }
  lnf_w = add("ln_f.weight", {d});
  lnf_b = add("ln_f.bias", {d});
}

ParameterLayout::ParameterLayout(const ModelConfig& config) {
  config.validate();
  const std::int64_t d = config.d_model, c = config.channels;
  embed_w = add("embed.weight", {d, c});
  embed_b = add("embed.bias", {d});
  add_blocks_and_final_norm(config);
  const std::int64_t outputs = std::int64_t(config.horizon) * config.outputs();
  head_w = add("head.weight", {outputs, d});
  head_b = add("head.bias", {outputs});
}

ParameterLayout ParameterLayout::for_events(const EventModelConfig& config) {
  config.validate();
  const std::int64_t d = config.backbone.d_model, marks = config.marks;
  const std::int64_t time_outputs = 3 * std::int64_t(config.mixture_components);
  ParameterLayout layout;
  layout.embed_w = layout.add("embed.weight", {d, config.input_features()});
  layout.embed_b = layout.add("embed.bias", {d});
  if (marks > 0) layout.mark_embed = layout.add("mark_embed.weight", {marks, d});
  layout.add_blocks_and_final_norm(config.backbone);
  layout.time_head_w = layout.add("time_head.weight", {time_outputs, d});
  layout.time_head_b = layout.add("time_head.bias", {time_outputs});
  if (marks > 0) {
    layout.mark_head_w = layout.add("mark_head.weight", {marks, d});
    layout.mark_head_b = layout.add("mark_head.bias", {marks});
  }
  return layout;
}

ParameterLayout ParameterLayout::for_classifier(const ClassifierConfig& config) {
  config.validate();
  const std::int64_t d = config.backbone.d_model, c = config.backbone.channels, k = config.classes;
  ParameterLayout layout;
  layout.embed_w = layout.add("embed.weight", {d, c});
  layout.embed_b = layout.add("embed.bias", {d});
  layout.add_blocks_and_final_norm(config.backbone);
  layout.head_w = layout.add("head.weight", {k, d});
  layout.head_b = layout.add("head.bias", {k});
  if (config.members == 1) return layout;
  // An ensemble: the members one after another, named as a PyTorch ModuleList "members"; the role
  // offsets stay the first member's, member m's are theirs plus m * member_total.
  ParameterLayout ensemble = layout;
  ensemble.entries_.clear();
  ensemble.total_ = 0;
  for (int m = 0; m < config.members; ++m)
    for (const ParameterEntry& e : layout.entries_) ensemble.add("members." + std::to_string(m) + "." + e.name, e.shape);
  return ensemble;
}

ParameterLayout ParameterLayout::for_decision(const rl::DecisionConfig& config) {
  config.validate();
  const std::int64_t d = config.backbone.d_model, s = config.state_dim, a = config.action_dim;
  ParameterLayout layout;
  layout.timestep_embed = layout.add("embed_timestep.weight", {config.max_timestep, d});
  layout.return_embed_w = layout.add("embed_return.weight", {d, 1});
  layout.return_embed_b = layout.add("embed_return.bias", {d});
  layout.embed_w = layout.add("embed_state.weight", {d, s});
  layout.embed_b = layout.add("embed_state.bias", {d});
  layout.action_embed_w = layout.add("embed_action.weight", {d, a});
  layout.action_embed_b = layout.add("embed_action.bias", {d});
  layout.embed_ln_w = layout.add("embed_ln.weight", {d});
  layout.embed_ln_b = layout.add("embed_ln.bias", {d});
  layout.add_blocks_and_final_norm(config.backbone);
  layout.head_w = layout.add("predict_action.weight", {a, d});
  layout.head_b = layout.add("predict_action.bias", {a});
  return layout;
}

std::size_t ParameterLayout::block_total(int layer) const {
  const std::size_t begin = blocks[std::size_t(layer)].ln1_w;
  const std::size_t end = std::size_t(layer) + 1 < blocks.size() ? blocks[std::size_t(layer) + 1].ln1_w : lnf_w;
  return end - begin;
}

}  // namespace aaren
