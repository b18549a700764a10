// The CUDA backend's kernel entry points in a build without a CUDA compiler: each says why no GPU
// can be used, so callers need no build-dependent code (they ask gpu::query_device first).
#include "gpu/attention_bench.hpp"
#include "gpu/device_info.hpp"
#include "gpu/layers.hpp"
#include "gpu/linear_attention.hpp"
#include "gpu/prefix_attention.hpp"

namespace aaren::gpu {

void prefix_attention_forward(float*, float*, const float*, const float*, const float*, int, int, int, int, float) {
  throw_unavailable();
}

void prefix_attention_backward(float*, float*, float*, const float*, const float*, const float*, const float*,
                               const float*, const float*, int, int, int, int, float) {
  throw_unavailable();
}

AttentionBenchResult run_attention_bench(const AttentionBenchOptions&) { throw_unavailable(); }

// No handle can be made, so the destructor never has one to release.
struct Blas::Handle {};
Blas::Blas() { throw_unavailable(); }
Blas::~Blas() = default;

void linear_forward(Blas&, float*, const float*, const float*, const float*, int, int, int) { throw_unavailable(); }
void linear_backward(Blas&, float*, float*, float*, const float*, const float*, const float*, int, int, int) {
  throw_unavailable();
}

void layernorm_forward(float*, float*, float*, const float*, const float*, const float*, int, int) {
  throw_unavailable();
}
void layernorm_backward(float*, float*, float*, const float*, const float*, const float*, const float*, const float*,
                        int, int) {
  throw_unavailable();
}

void gelu_forward(float*, const float*, long) { throw_unavailable(); }
void gelu_backward(float*, const float*, const float*, long) { throw_unavailable(); }

void add(float*, const float*, const float*, long) { throw_unavailable(); }
void broadcast_rows(float*, const float*, int, int) { throw_unavailable(); }
void sum_rows_add(float*, const float*, int, int) { throw_unavailable(); }
void add_to_each(float*, const float*, int, long) { throw_unavailable(); }
void gather_last(float*, const float*, int, int, int) { throw_unavailable(); }
void scatter_last(float*, const float*, int, int, int) { throw_unavailable(); }

void instance_norm_forward(float*, float*, float*, const float*, int, int, int) { throw_unavailable(); }
void instance_denorm_forward(float*, const float*, const float*, const float*, int, int, int) { throw_unavailable(); }
void instance_denorm_backward(float*, const float*, const float*, int, int, int) { throw_unavailable(); }

void mse_loss(float*, float*, const float*, const float*, int, int, float) { throw_unavailable(); }

void causal_attention_forward(float*, float*, const float*, const float*, const float*, int, int, int, int) {
  throw_unavailable();
}
void causal_attention_backward(float*, float*, float*, const float*, const float*, const float*, const float*,
                               const float*, int, int, int, int) {
  throw_unavailable();
}
void causal_attention_decode(float*, const float*, const float*, const float*, int, int, int, int, int) {
  throw_unavailable();
}

void prefix_attention_step(float*, float*, float*, float*, float*, float*, const float*, const float*, const float*, int,
                           int, int, float) {
  throw_unavailable();
}
void prefix_attention_reset(float*, float*, float*, float*, float*, int, int, int) { throw_unavailable(); }

void elu_plus_one_forward(float*, long) { throw_unavailable(); }
void elu_plus_one_backward(float*, const float*, long) { throw_unavailable(); }
void causal_linear_attention_forward(float*, float*, const float*, const float*, const float*, int, int, int, int,
                                     float) {
  throw_unavailable();
}
void causal_linear_attention_backward(float*, float*, float*, const float*, const float*, const float*, const float*,
                                      const float*, const float*, int, int, int, int) {
  throw_unavailable();
}
void linear_attention_step(float*, float*, float*, float*, float*, const float*, const float*, const float*, int, int,
                           int, float) {
  throw_unavailable();
}

void sum_of_squares(float*, const float*, long) { throw_unavailable(); }
void adamw_step(float*, float*, float*, const float*, const float*, const float*, long, float, float, float, float,
                float, long, float) {
  throw_unavailable();
}

}  // namespace aaren::gpu
