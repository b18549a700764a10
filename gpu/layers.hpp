#pragma once
// The layers of both models on the GPU, batched: the CUDA twins of core/nn/*.hpp and of the
// element-wise glue in core/model/*.cpp, each checked against its CPU reference in
// tests/gpu/tst_gpu_layers.cpp. Plain C++: callable without nvcc.
//
// All pointers are device memory (gpu/device_buffer.hpp), float32, row-major with the shapes in
// the comments. As on the CPU, activation gradients are written (=) and parameter gradients
// accumulate (+=). Every call is queued on the calling thread's own default stream (so work of
// other threads neither waits for it nor is timed with it) and returns at once; sizes are checked
// before launching (std::invalid_argument), and gpu::synchronize() reports a fault. The sums over
// many rows are deterministic: the same inputs give the same bits on every run.
#include <memory>

namespace aaren::gpu {

// The cuBLAS handle the linear layers share (created once per model: creating one is slow).
class Blas {
 public:
  Blas();
  ~Blas();
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;
  struct Handle;
  Handle& handle() { return *handle_; }

 private:
  std::unique_ptr<Handle> handle_;
};

// out = inp weight^T + bias, weight (OC, C) as PyTorch stores it. One GEMM for all B rows.
void linear_forward(Blas& blas, float* out /*(B, OC)*/, const float* inp /*(B, C)*/, const float* weight /*(OC, C)*/,
                    const float* bias /*(OC) or nullptr*/, int B, int C, int OC);
// dinp is written (nullptr skips it); dweight and dbias accumulate (dbias may be nullptr).
void linear_backward(Blas& blas, float* dinp /*(B, C) or nullptr*/, float* dweight /*(OC, C)*/,
                     float* dbias /*(OC) or nullptr*/, const float* dout /*(B, OC)*/, const float* inp /*(B, C)*/,
                     const float* weight /*(OC, C)*/, int B, int C, int OC);

// LayerNorm over the last axis (core/nn/layernorm.hpp): eps 1e-5, biased variance.
void layernorm_forward(float* out /*(B, C)*/, float* mean /*(B)*/, float* rstd /*(B)*/, const float* inp /*(B, C)*/,
                       const float* weight /*(C)*/, const float* bias /*(C)*/, int B, int C);
void layernorm_backward(float* dinp /*(B, C)*/, float* dweight /*(C) +=*/, float* dbias /*(C) +=*/,
                        const float* dout /*(B, C)*/, const float* inp /*(B, C)*/, const float* weight /*(C)*/,
                        const float* mean /*(B)*/, const float* rstd /*(B)*/, int B, int C);

// The exact GELU (core/nn/gelu.hpp). dinp may be the same buffer as dout.
void gelu_forward(float* out /*(N)*/, const float* inp /*(N)*/, long N);
void gelu_backward(float* dinp /*(N)*/, const float* inp /*(N)*/, const float* dout /*(N)*/, long N);

// out = a + b (the residual connections); out may be a or b.
void add(float* out /*(N)*/, const float* a /*(N)*/, const float* b /*(N)*/, long N);
// out[r] = row for each of the B rows (Aaren's one learned query, shared by a batch).
void broadcast_rows(float* out /*(B, C)*/, const float* row /*(C)*/, int B, int C);
// out += the sum of the B rows (the gradient of a broadcast row).
void sum_rows_add(float* out /*(C) +=*/, const float* inp /*(B, C)*/, int B, int C);
// x[b] += table for every batch row b (the positional encoding added to each window's tokens).
void add_to_each(float* x /*(B, L, D)*/, const float* table /*(L, D)*/, int B, long LD);
// out[b] = x[b, L - 1] (the last token of each window, which feeds the head) and its gradient:
// dx is written, zero except at the last tokens.
void gather_last(float* out /*(B, D)*/, const float* x /*(B, L, D)*/, int B, int L, int D);
void scatter_last(float* dx /*(B, L, D)*/, const float* dout /*(B, D)*/, int B, int L, int D);

// Instance normalization of each window (core/nn/instance_norm.hpp), per batch row.
void instance_norm_forward(float* out /*(B, L, C)*/, float* mean /*(B, C)*/, float* sigma /*(B, C)*/,
                           const float* inp /*(B, L, C)*/, int B, int L, int C);
void instance_denorm_forward(float* out /*(B, H, C)*/, const float* inp /*(B, H, C)*/, const float* mean /*(B, C)*/,
                             const float* sigma /*(B, C)*/, int B, int H, int C);
void instance_denorm_backward(float* dinp /*(B, H, C)*/, const float* dout /*(B, H, C)*/,
                              const float* sigma /*(B, C)*/, int B, int H, int C);

// Per-row mean squared error (core/model/forecast_model.hpp mse_loss): loss[b] = mean over the n
// values of (y - truth)^2, and, when dy is given, dy = grad_weight * 2 (y - truth) / n (the
// gradient of grad_weight * sum_b loss[b]).
void mse_loss(float* loss /*(B)*/, float* dy /*(B, n) or nullptr*/, const float* y /*(B, n)*/,
              const float* truth /*(B, n)*/, int B, int n, float grad_weight);

// Causal multi-head softmax attention of B sequences (core/nn/causal_attention.hpp): q, k, v are
// the projected (B, L, C) matrices, head h owns columns [h d, (h + 1) d), d = C / H, scores scaled
// by 1 / sqrt(d). probs keeps the weights for the backward; its upper triangles are written as 0.
void causal_attention_forward(float* out /*(B, L, C)*/, float* probs /*(B, H, L, L)*/, const float* q /*(B, L, C)*/,
                              const float* k /*(B, L, C)*/, const float* v /*(B, L, C)*/, int B, int L, int C,
                              int H);
// dq, dk, dv are written; none of them may overlap an input (dv also carries a per-row scratch value
// between the kernels of the backward).
void causal_attention_backward(float* dq /*(B, L, C)*/, float* dk /*(B, L, C)*/, float* dv /*(B, L, C)*/,
                               const float* dout /*(B, L, C)*/, const float* q /*(B, L, C)*/,
                               const float* k /*(B, L, C)*/, const float* v /*(B, L, C)*/,
                               const float* probs /*(B, H, L, L)*/, int B, int L, int C, int H);
// The KV-cache decode step of B streams: each new token (position t, its k and v already written as
// row t of its cache) against rows 0..t. Equals row t of causal_attention_forward on that prefix.
void causal_attention_decode(float* out /*(B, C)*/, const float* q /*(B, C)*/,
                             const float* k_cache /*(B, capacity, C)*/, const float* v_cache /*(B, capacity, C)*/,
                             int B, int t_plus_1, int capacity, int C, int H);

// Aaren's streaming step of B streams for one layer (core/model/backbone_stream.hpp): folds the
// new token's (k, v) into each head's (m, u, w) state and writes the attention output
// w / u for every head. scale = 1 / sqrt(d), d = C / H. u and w are compensated sums (the values
// are u + u_carry and w + w_carry), so a stream keeps counting tokens past 2^24
// (core/scan/state.hpp, CompensatedSum).
void prefix_attention_step(float* out /*(B, C)*/, float* m /*(B, H)*/, float* u /*(B, H)*/, float* u_carry /*(B, H)*/,
                           float* w /*(B, C)*/, float* w_carry /*(B, C)*/, const float* q /*(C)*/,
                           const float* k /*(B, C)*/, const float* v /*(B, C)*/, int B, int C, int H, float scale);
// Resets (m, u, w) and the carries to the empty state: m = -inf, the others 0.
void prefix_attention_reset(float* m /*(B, H)*/, float* u /*(B, H)*/, float* u_carry /*(B, H)*/, float* w /*(B, C)*/,
                            float* w_carry /*(B, C)*/, int B, int C, int H);

// The optimizer step without host round trips (core/train/adamw.hpp, clip_grad_norm):
// sum_of_squares writes sum_i x_i^2 (accumulated in double, stored as float) into the device
// scalar *out; a sum past the float range (a norm past about 1.8e19) is stored as inf, which
// adamw_step takes for a diverged step.
void sum_of_squares(float* out /*(1)*/, const float* x /*(N)*/, long N);
// One AdamW step at step number t (1-based) with the gradients scaled by min(1, clip / norm),
// norm = sqrt(*grad_sum_sq) (clip <= 0: no clipping). When the norm is not finite the parameters,
// m and v are left as they are, so a diverged step never spoils the last finite weights.
// decay (N) is 1 for the decayed entries and 0 for the others.
void adamw_step(float* params /*(N)*/, float* m /*(N)*/, float* v /*(N)*/, const float* grads /*(N)*/,
                const float* decay /*(N)*/, const float* grad_sum_sq /*(1)*/, long N, float lr, float beta1,
                float beta2, float eps, float weight_decay, long t, float clip);

}  // namespace aaren::gpu
