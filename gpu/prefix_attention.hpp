#pragma once
// Many-to-many Aaren attention on the GPU, every head of every batch row in one launch: the CUDA
// twin of core/attention/prefix_attention.hpp (prefix_attention_forward, prefix_softmax_backward
// and the chain rule through the scores that core/model/mixer.cpp applies). Plain C++: callable
// without nvcc.
//
// All pointers are device memory (gpu/device_buffer.hpp). Head h of K, V, O, dO, dK, dV is the
// column slice [h d, (h + 1) d) of the row-major (B, N, H d) matrix the model keeps; each head has
// one query, q (B, H, d) (Aaren's learned query after its projection). Scores are
// s_i = scale * q . k_i. Launches are queued on the default stream; gpu::synchronize() waits for
// them and reports a fault. Sizes are checked before launching (std::invalid_argument).
namespace aaren::gpu {

// The largest head dimension the kernels take: a warp's 32 lanes hold at most 8 elements each.
constexpr int kMaxHeadDim = 256;

// o_i = sum_{j<=i} softmax_j(s) v_j for every prefix i, and log_z_i = log sum_{j<=i} exp(s_j) (the
// backward's input; may be nullptr when only O is wanted). K and V are read once, O written once.
void prefix_attention_forward(float* o /*(B, N, H d)*/, float* log_z /*(B, H, N) or nullptr*/,
                              const float* q /*(B, H, d)*/, const float* k /*(B, N, H d)*/,
                              const float* v /*(B, N, H d)*/, int batch, int n, int heads, int d,
                              float scale);

// Given dO = dL/dO and the forward's O and log_z: writes dK and dV, and adds dL/dq to dq
// (parameter-style accumulation: q is one vector shared by all N tokens of its head). O(N d) time
// and no buffer beyond the outputs: the reverse recurrences of docs/DESIGN.md section 3, chunk by chunk.
void prefix_attention_backward(float* dk /*(B, N, H d)*/, float* dv /*(B, N, H d)*/, float* dq /*(B, H, d) +=*/,
                               const float* d_o /*(B, N, H d)*/, const float* q /*(B, H, d)*/,
                               const float* k /*(B, N, H d)*/, const float* v /*(B, N, H d)*/,
                               const float* o /*(B, N, H d)*/, const float* log_z /*(B, H, N)*/, int batch,
                               int n, int heads, int d, float scale);

}  // namespace aaren::gpu
