#pragma once
// The linear Transformer's attention on the GPU (Katharopoulos et al. 2020), every head of every
// batch row in one launch: the CUDA twin of core/nn/causal_linear_attention.hpp (the feature map
// elu + 1, the causal forward and its backward) and of the streaming step of
// core/attention/linear_attention.hpp (LinearAttentionState). Plain C++: callable without nvcc.
//
// All pointers are device memory (gpu/device_buffer.hpp), float32. Head h of a (B, L, C) matrix is
// the column slice [h d, (h + 1) d), d = C / H, as on the CPU. One block per (row, head) runs over
// the tokens in order with the head's S (d x d) and z (d) in shared memory, so each launch is
// O(L d^2) per head with nothing of size L x L. Launches are queued on the calling thread's default
// stream; gpu::synchronize() waits for them and reports a fault. Sizes are checked before launching
// (std::invalid_argument).
namespace aaren::gpu {

// The largest head dimension: a head's S, d x d floats, and its backward's R stay in shared memory.
constexpr int kMaxLinearHeadDim = 64;

// x = elu(x) + 1 in place; d = d * phi'(x) from phi itself, min(phi, 1) (core/nn/causal_linear_attention.hpp).
void elu_plus_one_forward(float* x /*(N)*/, long N);
void elu_plus_one_backward(float* d /*(N)*/, const float* phi /*(N)*/, long N);

// y_i = phi(q_i)^T S_i / (phi(q_i)^T z_i + eps) over tokens 1..i of each row; den keeps each
// token's denominator (eps included) for the backward.
void causal_linear_attention_forward(float* out /*(B, L, C)*/, float* den /*(B, H, L)*/, const float* phi_q /*(B, L, C)*/,
                                     const float* phi_k /*(B, L, C)*/, const float* v /*(B, L, C)*/, int B, int L,
                                     int C, int H, float eps);
// dphi_q, dphi_k and dv are written, from the forward's out and den: a forward pass over the tokens
// for dphi_q (S_i dn_i + z_i dd_i), a reverse one for dv and dphi_k (R_j, r_j), as on the CPU.
void causal_linear_attention_backward(float* dphi_q /*(B, L, C)*/, float* dphi_k /*(B, L, C)*/, float* dv /*(B, L, C)*/,
                                      const float* dout /*(B, L, C)*/, const float* phi_q /*(B, L, C)*/,
                                      const float* phi_k /*(B, L, C)*/, const float* v /*(B, L, C)*/,
                                      const float* out /*(B, L, C)*/, const float* den /*(B, H, L)*/, int B, int L,
                                      int C, int H);

// One token of B streams for one layer: adds (phi_k, v) to each head's S and z, then writes
// phi_q^T S / (phi_q^T z + eps). S and z are compensated sums (their values are S + S_carry and
// z + z_carry), so a stream keeps counting past 2^24 tokens as the CPU's state does.
void linear_attention_step(float* out /*(B, C)*/, float* s /*(B, H, d, d)*/, float* s_carry /*(B, H, d, d)*/,
                           float* z /*(B, H, d)*/, float* z_carry /*(B, H, d)*/, const float* phi_q /*(B, C)*/,
                           const float* phi_k /*(B, C)*/, const float* v /*(B, C)*/, int B, int C, int H, float eps);

}  // namespace aaren::gpu
