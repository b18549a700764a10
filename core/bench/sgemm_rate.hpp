#pragma once
// This machine's single-precision matrix-multiply rate, the limit a training step is measured
// against (`aaren bench train`): Eigen's product, at the shapes the step multiplies, on every worker
// at once. A step's workers each take a share of the batch, so each worker here multiplies its own
// share of the rows, (rows / workers, K) by (K, N), and the rate is all their operations over the
// wall time. The shapes are weighed by their operations, as the step's time is.
#include <vector>

#include "core/model/model_config.hpp"

namespace aaren::bench {

struct GemmShape {
  long rows = 0;  // M, over all workers
  int depth = 0;  // K
  int cols = 0;   // N
  double weight = 1;  // its share of the step's operations
};

// The largest products of a forecaster's training step: the projections (B T, d, d) and the FFN's
// two layers (B T, d, d_ff) and (B T, d_ff, d), weighed by how often a layer computes each.
std::vector<GemmShape> training_gemm_shapes(const ModelConfig& config, int batch);

// GFLOP/s: the median over `repeats` timed runs (after a warm-up) of each shape, combined as the
// weighted harmonic mean (total operations over total time). threads <= 0: every core.
double sgemm_gflops(const std::vector<GemmShape>& shapes, int threads, int repeats);

}  // namespace aaren::bench
