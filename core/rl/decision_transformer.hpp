#pragma once
// The Decision Transformer (Chen et al. 2021) on the shared blocks, as a forward/backward pair over
// one trajectory segment of n <= context steps (docs/DESIGN.md section 11):
//   tokens      step i gives three tokens, in this order:
//                 R_i: W_R rtg_i + b_R + E[t_i]          (rtg_i divided by return_scale by the caller)
//                 s_i: W_s s_i + b_s + E[t_i]          (s_i standardized with the data set's statistics)
//                 a_i: W_a a_i + b_a + E[t_i]          (a_i divided by the action bound, in [-1, 1])
//               E the timestep table (row min(t_i, max_timestep - 1)), then embed_ln on every token
//   backbone    the L pre-LN blocks of core/model/backbone.hpp over the 3n tokens, causal
//   head        â_i = tanh(W_h ln_f(h_{3i+1}) + b_h): the action read from each state token, which has
//               seen R_1, s_1, a_1, ..., R_i, s_i and not a_i
// Loss: the mean squared error over the n steps and A values, sum_i |â_i - a_i|^2 / (n A).
// Only the first n steps of every input are read, so whatever pads a segment cannot change its loss.
// Parameters: ParameterLayout::for_decision.
#include <cstddef>

#include "core/model/backbone.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/rl/decision_config.hpp"
#include "core/util/aligned_vector.hpp"

namespace aaren::rl {

// One segment as the model reads it, each pointer to at least n rows.
template <class T>
struct DecisionInputs {
  const T* returns_to_go;  // (n) scaled by the config's return_scale
  const T* states;         // (n, S) standardized
  const T* actions;        // (n, A) in [-1, 1]; the last step's is not read by any prediction
  const int* timesteps;    // (n) the steps' indices in their episode
};

template <class T>
struct DecisionState : BackboneState<T> {
  explicit DecisionState(const DecisionConfig& config);
  int n = 0;                                    // steps of the last forward
  AlignedVector<T> embedded;                    // (3 capacity, D) the tokens before embed_ln
  AlignedVector<T> embed_mean, embed_rstd;      // (3 capacity)
  AlignedVector<T> by_kind;                     // (capacity, D) one kind of token's W x + b, before it is interleaved
  AlignedVector<T> state_hidden;                // (capacity, D) h_{3i+1}
  AlignedVector<T> lnf, lnf_mean, lnf_rstd;     // (capacity, D), (capacity), (capacity)
  AlignedVector<T> predicted;                   // (capacity, A) â
  std::vector<int> rows;                        // (capacity) the timestep table's row of each step
};

template <class T>
struct DecisionScratch : BackboneScratch<T> {
  explicit DecisionScratch(const DecisionConfig& config);
  AlignedVector<T> dpredicted, dlnf, dstate_hidden;  // (capacity, A), (capacity, D), (capacity, D)
  AlignedVector<T> dembedded, dby_kind;              // (3 capacity, D), (capacity, D)
};

// Throws std::invalid_argument when n is outside 1..context or a timestep is negative.
template <class T>
void decision_forward(DecisionState<T>& state, const T* params, const ParameterLayout& layout,
                      const DecisionConfig& config, const DecisionInputs<T>& inputs, int n);

// The sum of squared errors of state's predictions against `actions` (n, A); with dpredicted writes
// weight * d(sum)/d(â). The loss is this sum over n A.
template <class T>
T decision_squared_error(T* dpredicted /*(n, A) or nullptr*/, const DecisionState<T>& state,
                         const DecisionConfig& config, const T* actions, T weight = T(1));

// Accumulates dL/dparams into grads given dL/dâ (scratch.dpredicted, n rows, which it consumes: it
// is left holding the gradient before the tanh) and the forward's state.
template <class T>
void decision_backward(T* grads, DecisionScratch<T>& scratch, const DecisionState<T>& state, const T* params,
                       const ParameterLayout& layout, const DecisionConfig& config, const DecisionInputs<T>& inputs);

// The timestep table's row for step t of an episode.
int timestep_row(const DecisionConfig& config, int t);

}  // namespace aaren::rl
