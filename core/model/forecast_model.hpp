#pragma once
// The forecasting model (docs/DESIGN.md section 4) as a forward/backward pair over one window:
//   instance norm -> embed + PE -> L pre-LN blocks (mixer, FFN) -> LN_f(last token) -> head
//   -> (horizon, K) -> * sigma + mu, K = config.outputs(): every channel, or the target alone
//   (features MS), de-normalized with that channel's own window statistics.
// The blocks are the shared backbone (core/model/backbone.hpp). Parameters and gradients are flat
// buffers described by a ParameterLayout. Every buffer an activation needs is allocated once, in
// ForwardState / BackwardScratch, for a window length.

#include "core/model/backbone.hpp"
#include "core/model/model_config.hpp"
#include "core/model/parameter_init.hpp"
#include "core/util/aligned_vector.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

// The backbone's buffers (BackboneState: hidden states, mixer caches, ...) and the forecasting
// model's own: instance norm, embedding, final LayerNorm and head.
template <class T>
struct ForwardState : BackboneState<T> {
  explicit ForwardState(const ModelConfig& config);
  AlignedVector<T> pe;                       // (L, D) positional encoding, computed once
  AlignedVector<T> xn, in_mean, in_sigma;    // (L, C_in), (C_in), (C_in): instance-normalized input
  AlignedVector<T> lnf, lnf_mean, lnf_rstd;  // (D), (1), (1): final LayerNorm of the last token
  AlignedVector<T> head_out;                 // (horizon * K): forecast in normalized units
  AlignedVector<T> y;                        // (horizon, K): forecast in the input's units
};

// Bytes a ForwardState<T> of this configuration holds (before it is allocated).
std::size_t forward_state_bytes(const ModelConfig& config, std::size_t scalar_bytes);

template <class T>
struct BackwardScratch : BackboneScratch<T> {
  explicit BackwardScratch(const ModelConfig& config);
  AlignedVector<T> dhead, dlnf;  // (horizon * K), (D)
};

// y (state.y) for one window x (seq_len, C).
template <class T>
void forecast_forward(ForwardState<T>& state, const T* params, const ParameterLayout& layout,
                      const ModelConfig& config, const T* x /*(seq_len, C)*/);

// Accumulates dL/dparams into grads, given dL/dy (horizon, K) and the forward's state.
template <class T>
void forecast_backward(T* grads, BackwardScratch<T>& scratch, const ForwardState<T>& state, const T* params,
                       const ParameterLayout& layout, const ModelConfig& config, const T* dy /*(horizon, K)*/);

// Mean squared error of y against the truth; writes dL/dy when dy is given.
template <class T>
T mse_loss(T* dy /*(n) or nullptr*/, const T* y, const T* truth, int n);

}  // namespace aaren
