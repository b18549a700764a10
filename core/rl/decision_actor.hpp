#pragma once
// A trained Decision Transformer acting in an environment, one step at a time, in either of the two
// ways docs/DESIGN.md section 11 describes:
//   window  the last K steps re-run through the whole model at every step, as the Decision
//           Transformer does: time per step grows with K, and the K steps' inputs are kept
//   stream  the blocks run as an RNN (core/model/backbone_stream.hpp): each token enters once and
//           the model carries its state over the whole episode; Aaren's and the linear
//           Transformer's state is constant in size, the Transformer's KV cache grows every step
// Both read the same parameters; on an episode no longer than K they predict the same actions.
// Inputs are the model's: the return-to-go scaled, the state standardized, actions in [-1, 1].
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/model/parameter_layout.hpp"
#include "core/rl/decision_config.hpp"

namespace aaren::rl {

enum class ActMode { window, stream };
std::string_view to_string(ActMode mode);  // "window", "stream"
std::optional<ActMode> act_mode_from_string(std::string_view name);

class DecisionActor {
 public:
  virtual ~DecisionActor() = default;
  // Forgets the episode.
  virtual void reset() = 0;
  // The predicted action (A values in [-1, 1]) for step `timestep` of the episode, given its
  // return-to-go and state; valid until the next call.
  virtual const float* act(float return_to_go, const float* state, int timestep) = 0;
  // The action taken at the step act() was last called for (A values in [-1, 1]).
  virtual void record_action(const float* action) = 0;
  // Bytes the actor keeps between steps: the window's inputs, or the stream's state.
  virtual std::size_t state_bytes() const = 0;
};

// `layout` and `params` must outlive the actor. `reserve_steps` pre-sizes a stream's KV cache.
std::unique_ptr<DecisionActor> make_decision_actor(ActMode mode, const DecisionConfig& config,
                                                   const ParameterLayout& layout, const float* params,
                                                   long reserve_steps = 0);

// The same in double, for the tests that compare the two ways on every prefix.
template <class T>
std::vector<T> stream_predictions(const DecisionConfig& config, const ParameterLayout& layout, const T* params,
                                  const T* returns_to_go, const T* states, const T* actions, const int* timesteps,
                                  int steps);

}  // namespace aaren::rl
