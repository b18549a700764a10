#include "core/bench/step_flops.hpp"

#include "core/nn/causal_linear_attention.hpp"

namespace aaren::bench {

namespace {

// The forward of one window.
StepFlops window_forward_flops(const ModelConfig& c) {
  const double T = c.seq_len, d = c.d_model, f = c.d_ff, dh = c.d_head();
  StepFlops flops;
  double projections = 0, mixing = 0;
  switch (c.kind) {
    case ModelKind::transformer:
      projections = 4 * 2 * T * d * d;  // q, k, v and the output
      mixing = 2 * T * (T + 1) * d;     // row t: t + 1 scores and t + 1 weighted values, 2 d each
      break;
    case ModelKind::aaren:
      projections = 3 * 2 * T * d * d;  // k, v and the output (the learned query, once a step, is left out)
      mixing = 4 * T * d;               // the scan: a score and a weighted value per token, 2 d each
      break;
    case ModelKind::linear: {
      // The chunked form (core/nn/causal_linear_attention.hpp), per token and head: the products
      // with the chunk's earlier tokens and itself (on average (chunk + 1) / 2 of them, 2 d_head
      // each, for the scores and for the values) and with the running state S (2 d_head^2 for the
      // output, 2 d_head^2 for the update).
      const double chunk = linear_attention_chunk(c.d_head());
      projections = 4 * 2 * T * d * d;
      mixing = T * c.heads * (2 * (chunk + 1) * dh + 4 * dh * dh);
      break;
    }
  }
  flops.products = 2 * T * c.channels * d + c.layers * (projections + 2 * 2 * T * d * f) +
                   2 * d * double(c.horizon) * c.outputs();
  flops.attention = c.layers * mixing;
  return flops;
}

}  // namespace

StepFlops training_step_flops(const ModelConfig& config, int batch) {
  StepFlops window = window_forward_flops(config);
  window.products *= 3.0 * batch;
  window.attention *= 3.0 * batch;
  return window;
}

}  // namespace aaren::bench
