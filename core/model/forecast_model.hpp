#pragma once
// The forecasting model (DESIGN.md section 4) as a forward/backward pair over one window:
//   instance norm -> embed + PE -> L pre-LN blocks (mixer, FFN) -> LN_f(last token) -> head
//   -> (horizon, C) -> * sigma + mu.
// Parameters and gradients are flat buffers described by a ParameterLayout. Every buffer an
// activation needs is allocated once, in ForwardState / BackwardScratch, for a window length.
#include <random>
#include <vector>

#include "core/model/mixer.hpp"
#include "core/model/model_config.hpp"
#include "core/util/aligned_vector.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

template <class T>
struct ForwardState {
  explicit ForwardState(const ModelConfig& config);
  int L;                                   // window length these buffers hold (config.seq_len)
  int D;                                   // d_model
  AlignedVector<T> pe;                       // (L, D) positional encoding, computed once
  AlignedVector<T> xn, in_mean, in_sigma;    // (L, C_in), (C_in), (C_in): instance-normalized input
  AlignedVector<T> h;                        // (layers + 1, L, D): residual stream entering each block; last = output
  AlignedVector<T> ln1, ln1_mean, ln1_rstd;  // (layers, L, D), (layers, L), (layers, L)
  std::vector<MixerCache<T>> mixer;        // per layer
  AlignedVector<T> h_mid;                    // (layers, L, D): after the mixer's residual
  AlignedVector<T> ln2, ln2_mean, ln2_rstd;  // (layers, L, D), (layers, L), (layers, L)
  AlignedVector<T> ffn_pre, ffn_act;         // (layers, L, F)
  AlignedVector<T> branch;                   // (L, D) a block branch's output before it is added
  AlignedVector<T> lnf, lnf_mean, lnf_rstd;  // (D), (1), (1): final LayerNorm of the last token
  AlignedVector<T> head_out;                 // (horizon * C): forecast in normalized units
  AlignedVector<T> y;                        // (horizon, C): forecast in the input's units

  const T* hidden(int layer_output) const;  // (L, D) hidden states after `layer_output` blocks
};

// Bytes a ForwardState<T> of this configuration holds (before it is allocated).
std::size_t forward_state_bytes(const ModelConfig& config, std::size_t scalar_bytes);

template <class T>
struct BackwardScratch {
  explicit BackwardScratch(const ModelConfig& config);
  MixerScratch<T> mixer;
  AlignedVector<T> dh, dbranch, dln;  // (L, D)
  AlignedVector<T> dffn_act;          // (L, F)
  AlignedVector<T> dhead, dlnf;       // (horizon * C), (D)
};

// y (state.y) for one window x (seq_len, C).
template <class T>
void forecast_forward(ForwardState<T>& state, const T* params, const ParameterLayout& layout,
                      const ModelConfig& config, const T* x /*(seq_len, C)*/);

// Accumulates dL/dparams into grads, given dL/dy (horizon, C) and the forward's state.
template <class T>
void forecast_backward(T* grads, BackwardScratch<T>& scratch, const ForwardState<T>& state, const T* params,
                       const ParameterLayout& layout, const ModelConfig& config, const T* dy /*(horizon, C)*/);

// Mean squared error of y against the truth; writes dL/dy when dy is given.
template <class T>
T mse_loss(T* dy /*(n) or nullptr*/, const T* y, const T* truth, int n);

// PyTorch's defaults: Linear weights and biases U(-1/sqrt(fan_in), 1/sqrt(fan_in)), LayerNorm
// weight 1 and bias 0, Aaren's q0 N(0, 1).
template <class T>
void init_parameters(std::vector<T>& params, const ParameterLayout& layout, std::mt19937& rng);

}  // namespace aaren
