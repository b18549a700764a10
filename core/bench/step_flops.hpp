#pragma once
// The floating-point operations of one training step of a forecaster, forward and backward,
// counted from its configuration (docs/DESIGN.md section 4, "What a training step computes"), so
// that `aaren bench train` can report the rate a step reaches beside this machine's SGEMM rate.
// Counted: every matrix product, an (M, K) by (K, N) product being 2 M K N operations, and the
// attention itself; left out: instance norm, LayerNorm, GELU, the exponentials, the optimizer.
// The backward of a product is two products of its size (the inputs' gradient and the weights'),
// so a step is counted as three forwards.
#include "core/model/model_config.hpp"

namespace aaren::bench {

struct StepFlops {
  double products = 0;   // the embedding, the Q/K/V/output projections, the FFN and the head
  double attention = 0;  // the token mixing itself: scores and weighted values (or the scan, the chunks)
  double total() const { return products + attention; }
};

StepFlops training_step_flops(const ModelConfig& config, int batch);

}  // namespace aaren::bench
