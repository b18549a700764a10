#pragma once
// The L pre-LN blocks both models share (docs/DESIGN.md section 4), as one forward/backward pair over a
// sequence of n <= capacity tokens:
//   h = h + Mixer(LN1(h));  h = h + FFN(LN2(h))     (Aaren or Transformer mixer, exact-GELU FFN)
// The caller writes its embedded tokens into state.input() (rows 0..n-1); the forward leaves the
// last block's output in state.hidden(layers). Every buffer holds `capacity` tokens (the config's
// seq_len) and is allocated once; a shorter sequence uses the first n rows of each layer's slice.
#include <cstddef>
#include <vector>

#include "core/model/mixer.hpp"
#include "core/model/model_config.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/util/aligned_vector.hpp"

namespace aaren {

template <class T>
struct BackboneState {
  explicit BackboneState(const ModelConfig& config);
  int capacity;                              // tokens the buffers hold (config.seq_len)
  int D;                                     // d_model
  // (layers + 1, capacity, D): the residual stream entering each block; the last slice is the output
  AlignedVector<T> h;
  AlignedVector<T> ln1, ln1_mean, ln1_rstd;  // (layers, capacity, D), (layers, capacity), (layers, capacity)
  std::vector<MixerCache<T>> mixer;          // per layer
  AlignedVector<T> h_mid;                    // (layers, capacity, D): after the mixer's residual
  AlignedVector<T> ln2, ln2_mean, ln2_rstd;  // (layers, capacity, D), (layers, capacity), (layers, capacity)
  AlignedVector<T> ffn_pre, ffn_act;         // (layers, capacity, F)
  AlignedVector<T> branch;                   // (capacity, D) a block branch's output before it is added

  T* input() { return h.data(); }           // (capacity, D) the embedded tokens, written by the caller
  const T* hidden(int layer_output) const;  // (capacity, D) hidden states after `layer_output` blocks
};

// Bytes a BackboneState<T> of this configuration holds (before it is allocated).
std::size_t backbone_state_bytes(const ModelConfig& config, std::size_t scalar_bytes);

template <class T>
struct BackboneScratch {
  explicit BackboneScratch(const ModelConfig& config);
  MixerScratch<T> mixer;
  // dh carries the gradient through the blocks: the caller writes dL/d(output) into its first n
  // rows, backbone_backward leaves dL/d(input) there.
  AlignedVector<T> dh, dbranch, dln;  // (capacity, D)
  AlignedVector<T> dffn_act;          // (capacity, F)
};

// Bytes a BackboneScratch<T> of this configuration holds (before it is allocated).
std::size_t backbone_scratch_bytes(const ModelConfig& config, std::size_t scalar_bytes);

// Runs the blocks over the n tokens in state.input().
template <class T>
void backbone_forward(BackboneState<T>& state, const T* params, const ParameterLayout& layout,
                      const ModelConfig& config, int n);

// Turns scratch.dh from dL/d(output) into dL/d(input); accumulates the blocks' parameter gradients.
template <class T>
void backbone_backward(T* grads, BackboneScratch<T>& scratch, const BackboneState<T>& state, const T* params,
                       const ParameterLayout& layout, const ModelConfig& config, int n);

}  // namespace aaren
