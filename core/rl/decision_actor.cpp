#include "core/rl/decision_actor.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/model/backbone_stream.hpp"
#include "core/nn/layernorm.hpp"
#include "core/nn/linear.hpp"
#include "core/rl/decision_transformer.hpp"

namespace aaren::rl {

namespace {

// The model as an RNN over tokens: each token embedded (its Linear, the timestep's row, embed_ln)
// and stepped through the blocks; the state token's output read by the head.
template <class T>
class TokenStream {
 public:
  TokenStream(const DecisionConfig& config, const ParameterLayout& layout, const T* params, long reserve_steps)
      : c_(config),
        layout_(layout),
        p_(params),
        blocks_(config.backbone, layout, params, 3 * reserve_steps),
        token_(std::size_t(config.backbone.d_model)),
        normed_(token_.size()),
        stat_(2),
        action_(std::size_t(config.action_dim)) {}

  void reset() { blocks_.reset(); }

  const T* act(T return_to_go, const T* state, int timestep) {
    row_ = timestep_row(c_, timestep);
    step(&return_to_go, 1, layout_.return_embed_w, layout_.return_embed_b);
    step(state, c_.state_dim, layout_.embed_w, layout_.embed_b);
    linear_forward(action_.data(), blocks_.normalized_hidden(), p_ + layout_.head_w, p_ + layout_.head_b, 1,
                   c_.backbone.d_model, c_.action_dim);
    for (T& a : action_) a = std::tanh(a);
    return action_.data();
  }

  void record_action(const T* action) { step(action, c_.action_dim, layout_.action_embed_w, layout_.action_embed_b); }

  std::size_t state_bytes() const { return blocks_.state_bytes(); }

 private:
  void step(const T* x, int width, std::size_t w, std::size_t b) {
    const int D = c_.backbone.d_model;
    linear_forward(token_.data(), x, p_ + w, p_ + b, 1, width, D);
    const T* e = p_ + layout_.timestep_embed + long(row_) * D;
    for (int j = 0; j < D; ++j) token_[std::size_t(j)] += e[j];
    layernorm_forward(normed_.data(), &stat_[0], &stat_[1], token_.data(), p_ + layout_.embed_ln_w,
                      p_ + layout_.embed_ln_b, 1, D);
    blocks_.step(normed_.data());
  }

  const DecisionConfig& c_;
  const ParameterLayout& layout_;
  const T* p_;
  BackboneStream<T> blocks_;
  std::vector<T> token_, normed_, stat_, action_;
  int row_ = 0;
};

class StreamActor : public DecisionActor {
 public:
  StreamActor(const DecisionConfig& config, const ParameterLayout& layout, const float* params, long reserve_steps)
      : config_(config), stream_(config_, layout, params, reserve_steps) {}
  void reset() override { stream_.reset(); }
  const float* act(float return_to_go, const float* state, int timestep) override {
    return stream_.act(return_to_go, state, timestep);
  }
  void record_action(const float* action) override { stream_.record_action(action); }
  std::size_t state_bytes() const override { return stream_.state_bytes(); }

 private:
  DecisionConfig config_;
  TokenStream<float> stream_;
};

// The last K steps' inputs, oldest first, run through decision_forward at every step.
class WindowActor : public DecisionActor {
 public:
  WindowActor(const DecisionConfig& config, const ParameterLayout& layout, const float* params)
      : config_(config),
        layout_(layout),
        params_(params),
        state_(config_),
        returns_(std::size_t(config.context)),
        states_(std::size_t(config.context) * std::size_t(config.state_dim)),
        actions_(std::size_t(config.context) * std::size_t(config.action_dim)),
        timesteps_(std::size_t(config.context)) {}

  void reset() override { n_ = 0; }

  const float* act(float return_to_go, const float* state, int timestep) override {
    const int K = config_.context, S = config_.state_dim, A = config_.action_dim;
    if (n_ == K) {  // the oldest step leaves the window
      std::copy(returns_.begin() + 1, returns_.end(), returns_.begin());
      std::copy(states_.begin() + S, states_.end(), states_.begin());
      std::copy(actions_.begin() + A, actions_.end(), actions_.begin());
      std::copy(timesteps_.begin() + 1, timesteps_.end(), timesteps_.begin());
      --n_;
    }
    returns_[std::size_t(n_)] = return_to_go;
    std::copy(state, state + S, states_.begin() + long(n_) * S);
    // The step's own action is not known yet; no prediction reads it (the tokens are causal).
    std::fill(actions_.begin() + long(n_) * A, actions_.begin() + long(n_ + 1) * A, 0.0f);
    timesteps_[std::size_t(n_)] = timestep;
    ++n_;
    const DecisionInputs<float> inputs{returns_.data(), states_.data(), actions_.data(), timesteps_.data()};
    decision_forward(state_, params_, layout_, config_, inputs, n_);
    return state_.predicted.data() + long(n_ - 1) * A;
  }

  void record_action(const float* action) override {
    if (n_ == 0) throw std::logic_error("an action recorded before the step it was taken in");
    const int A = config_.action_dim;
    std::copy(action, action + A, actions_.begin() + long(n_ - 1) * A);
  }

  std::size_t state_bytes() const override {
    return std::size_t(n_) * (sizeof(float) * std::size_t(1 + config_.state_dim + config_.action_dim) + sizeof(int));
  }

 private:
  DecisionConfig config_;
  const ParameterLayout& layout_;
  const float* params_;
  DecisionState<float> state_;
  std::vector<float> returns_, states_, actions_;
  std::vector<int> timesteps_;
  int n_ = 0;
};

}  // namespace

std::string_view to_string(ActMode mode) { return mode == ActMode::window ? "window" : "stream"; }

std::optional<ActMode> act_mode_from_string(std::string_view name) {
  if (name == "window") return ActMode::window;
  if (name == "stream") return ActMode::stream;
  return std::nullopt;
}

std::unique_ptr<DecisionActor> make_decision_actor(ActMode mode, const DecisionConfig& config,
                                                   const ParameterLayout& layout, const float* params,
                                                   long reserve_steps) {
  config.validate();
  if (mode == ActMode::window) return std::make_unique<WindowActor>(config, layout, params);
  return std::make_unique<StreamActor>(config, layout, params, reserve_steps);
}

template <class T>
std::vector<T> stream_predictions(const DecisionConfig& config, const ParameterLayout& layout, const T* params,
                                  const T* returns_to_go, const T* states, const T* actions, const int* timesteps,
                                  int steps) {
  TokenStream<T> stream(config, layout, params, steps);
  const int S = config.state_dim, A = config.action_dim;
  std::vector<T> predicted;
  for (int i = 0; i < steps; ++i) {
    const T* a = stream.act(returns_to_go[i], states + long(i) * S, timesteps[i]);
    predicted.insert(predicted.end(), a, a + A);
    stream.record_action(actions + long(i) * A);
  }
  return predicted;
}

template std::vector<double> stream_predictions<double>(const DecisionConfig&, const ParameterLayout&, const double*,
                                                        const double*, const double*, const double*, const int*, int);

}  // namespace aaren::rl
