// The linear Transformer's attention on the GPU (gpu/linear_attention.hpp; the CPU reference is
// core/nn/causal_linear_attention.cpp and LinearAttentionState of core/attention/linear_attention.cpp).
// One block per (row, head) walks the tokens in order: each token's features and values are staged
// in shared memory, the block's threads update the d x d entries of S (or R) and then each
// computes output columns. Every thread computes a token's denominator itself, in the same order,
// so all agree to the bit.
#include <cmath>

#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/linear_attention.hpp"

namespace aaren::gpu {

namespace {

constexpr int kLinearThreads = 256;

// Where head h of row b starts in a (B, L, C) matrix, for the block of sequence b H + h.
__device__ __forceinline__ long long head_start(int sequence, int L, int C, int H) {
  return static_cast<long long>(sequence / H) * L * C + static_cast<long long>(sequence % H) * (C / H);
}

__device__ __forceinline__ float dot(const float* a, const float* b, int d) {
  float sum = 0.0f;
  for (int e = 0; e < d; ++e) sum += a[e] * b[e];
  return sum;
}

__global__ void elu_plus_one_forward_kernel(float* x, long long n) {
  for (long long i = global_thread(); i < n; i += grid_threads()) x[i] = x[i] > 0.0f ? x[i] + 1.0f : expf(x[i]);
}

__global__ void elu_plus_one_backward_kernel(float* d, const float* __restrict__ phi, long long n) {
  for (long long i = global_thread(); i < n; i += grid_threads()) d[i] *= fminf(phi[i], 1.0f);
}

// Shared memory: S (d, d), z (d), then the token's q, k, v (d each).
__global__ void __launch_bounds__(kLinearThreads)
    causal_linear_attention_forward_kernel(float* __restrict__ out, float* __restrict__ den,
                                           const float* __restrict__ phi_q, const float* __restrict__ phi_k,
                                           const float* __restrict__ v, int L, int C, int H, float eps) {
  extern __shared__ float shared[];
  const int sequence = blockIdx.x, d = C / H;
  float* s = shared;
  float* z = s + d * d;
  float* q_t = z + d;
  float* k_t = q_t + d;
  float* v_t = k_t + d;
  for (int e = threadIdx.x; e < d * d; e += blockDim.x) s[e] = 0.0f;
  for (int e = threadIdx.x; e < d; e += blockDim.x) z[e] = 0.0f;
  const long long head = head_start(sequence, L, C, H);
  for (int t = 0; t < L; ++t) {
    const long long row = head + static_cast<long long>(t) * C;
    for (int e = threadIdx.x; e < d; e += blockDim.x) {
      q_t[e] = phi_q[row + e];
      k_t[e] = phi_k[row + e];
      v_t[e] = v[row + e];
    }
    __syncthreads();  // the token is staged (and the last token's reads of S are done)
    for (int e = threadIdx.x; e < d * d; e += blockDim.x) s[e] += k_t[e / d] * v_t[e % d];
    for (int e = threadIdx.x; e < d; e += blockDim.x) z[e] += k_t[e];
    __syncthreads();  // S_t and z_t are complete
    const float denominator = dot(q_t, z, d) + eps;
    for (int c = threadIdx.x; c < d; c += blockDim.x) {
      float numerator = 0.0f;
      for (int f = 0; f < d; ++f) numerator += q_t[f] * s[f * d + c];
      out[row + c] = numerator / denominator;
    }
    if (threadIdx.x == 0) den[static_cast<long long>(sequence) * L + t] = denominator;
    __syncthreads();  // every read of q_t, z and S is done before the next token overwrites them
  }
}

// Shared memory: M (d, d) and m (d), S and z in the forward pass, R and r in the reverse one; then
// the token's q, k, v and dn (d each), and its dd.
__global__ void __launch_bounds__(kLinearThreads)
    causal_linear_attention_backward_kernel(float* __restrict__ dphi_q, float* __restrict__ dphi_k,
                                            float* __restrict__ dv, const float* __restrict__ dout,
                                            const float* __restrict__ phi_q, const float* __restrict__ phi_k,
                                            const float* __restrict__ v, const float* __restrict__ out,
                                            const float* __restrict__ den, int L, int C, int H) {
  extern __shared__ float shared[];
  const int sequence = blockIdx.x, d = C / H;
  float* memory = shared;
  float* normalizer = memory + d * d;
  float* q_t = normalizer + d;
  float* k_t = q_t + d;
  float* v_t = k_t + d;
  float* dn = v_t + d;
  float* dd = dn + d;  // one value
  const long long head = head_start(sequence, L, C, H);
  const float* den_row = den + static_cast<long long>(sequence) * L;
  // The token's features and values, dn = g / den and dd = -(g . y) / den.
  auto stage = [&](int t) {
    const long long row = head + static_cast<long long>(t) * C;
    const float denominator = den_row[t];
    for (int e = threadIdx.x; e < d; e += blockDim.x) {
      q_t[e] = phi_q[row + e];
      k_t[e] = phi_k[row + e];
      v_t[e] = v[row + e];
      dn[e] = dout[row + e] / denominator;
    }
    if (threadIdx.x == 0) *dd = -dot(dout + row, out + row, d) / denominator;
  };

  // Forward: dphi(q_t) = S_t dn_t + z_t dd_t.
  for (int e = threadIdx.x; e < d * d; e += blockDim.x) memory[e] = 0.0f;
  for (int e = threadIdx.x; e < d; e += blockDim.x) normalizer[e] = 0.0f;
  for (int t = 0; t < L; ++t) {
    stage(t);
    __syncthreads();
    for (int e = threadIdx.x; e < d * d; e += blockDim.x) memory[e] += k_t[e / d] * v_t[e % d];
    for (int e = threadIdx.x; e < d; e += blockDim.x) normalizer[e] += k_t[e];
    __syncthreads();
    const long long row = head + static_cast<long long>(t) * C;
    for (int f = threadIdx.x; f < d; f += blockDim.x)
      dphi_q[row + f] = dot(memory + f * d, dn, d) + normalizer[f] * *dd;
    __syncthreads();
  }

  // Reverse: R_t = sum_{i>=t} phi(q_i) dn_i^T, r_t = sum_{i>=t} phi(q_i) dd_i;
  // dv_t = R_t^T phi(k_t), dphi(k_t) = R_t v_t + r_t.
  for (int e = threadIdx.x; e < d * d; e += blockDim.x) memory[e] = 0.0f;
  for (int e = threadIdx.x; e < d; e += blockDim.x) normalizer[e] = 0.0f;
  for (int t = L - 1; t >= 0; --t) {
    stage(t);
    __syncthreads();
    for (int e = threadIdx.x; e < d * d; e += blockDim.x) memory[e] += q_t[e / d] * dn[e % d];
    for (int e = threadIdx.x; e < d; e += blockDim.x) normalizer[e] += q_t[e] * *dd;
    __syncthreads();
    const long long row = head + static_cast<long long>(t) * C;
    for (int c = threadIdx.x; c < d; c += blockDim.x) {
      float sum = 0.0f;
      for (int f = 0; f < d; ++f) sum += memory[f * d + c] * k_t[f];
      dv[row + c] = sum;
    }
    for (int f = threadIdx.x; f < d; f += blockDim.x) dphi_k[row + f] = dot(memory + f * d, v_t, d) + normalizer[f];
    __syncthreads();
  }
}

// One block per (stream, head): the state's entries are updated by the block's threads, then each
// output column is read from the compensated values.
__global__ void __launch_bounds__(kLinearThreads)
    linear_attention_step_kernel(float* __restrict__ out, float* __restrict__ s_state, float* __restrict__ s_carry,
                                 float* __restrict__ z_state, float* __restrict__ z_carry,
                                 const float* __restrict__ phi_q, const float* __restrict__ phi_k,
                                 const float* __restrict__ v, int C, int H, float eps) {
  const int state = blockIdx.x, d = C / H;  // state = b H + h
  const long long row = static_cast<long long>(state / H) * C + static_cast<long long>(state % H) * d;
  float* s = s_state + static_cast<long long>(state) * d * d;
  float* s_c = s_carry + static_cast<long long>(state) * d * d;
  float* z = z_state + static_cast<long long>(state) * d;
  float* z_c = z_carry + static_cast<long long>(state) * d;
  for (int e = threadIdx.x; e < d * d; e += blockDim.x)
    compensated_add(s[e], s_c[e], phi_k[row + e / d] * v[row + e % d]);
  for (int e = threadIdx.x; e < d; e += blockDim.x) compensated_add(z[e], z_c[e], phi_k[row + e]);
  __syncthreads();  // the block's own writes to S and z are visible to all its threads
  float denominator = eps;
  for (int f = 0; f < d; ++f) denominator += phi_q[row + f] * (z[f] + z_c[f]);
  for (int c = threadIdx.x; c < d; c += blockDim.x) {
    float numerator = 0.0f;
    for (int f = 0; f < d; ++f) numerator += phi_q[row + f] * (s[f * d + c] + s_c[f * d + c]);
    out[row + c] = numerator / denominator;
  }
}

void check_linear_sizes(const char* function, int B, int L, int C, int H) {
  require_non_negative(function, "B", B);
  require_non_negative(function, "L", L);
  require_heads(function, C, H);
  if (C / H > kMaxLinearHeadDim)
    throw_bad_size(function, "heads of " + std::to_string(C / H) + " dimensions; at most " +
                                 std::to_string(kMaxLinearHeadDim) + " fit in shared memory");
}

std::size_t shared_bytes(int d, int vectors) { return sizeof(float) * (std::size_t(d) * d + std::size_t(vectors) * d + 1); }

}  // namespace

void elu_plus_one_forward(float* x, long N) {
  require_non_negative("elu_plus_one_forward", "N", N);
  if (N == 0) return;
  elu_plus_one_forward_kernel<<<stride_blocks(N), kStrideThreads>>>(x, N);
  check_launch("elu_plus_one_forward_kernel");
}

void elu_plus_one_backward(float* d, const float* phi, long N) {
  require_non_negative("elu_plus_one_backward", "N", N);
  if (N == 0) return;
  elu_plus_one_backward_kernel<<<stride_blocks(N), kStrideThreads>>>(d, phi, N);
  check_launch("elu_plus_one_backward_kernel");
}

void causal_linear_attention_forward(float* out, float* den, const float* phi_q, const float* phi_k, const float* v,
                                     int B, int L, int C, int H, float eps) {
  check_linear_sizes("causal_linear_attention_forward", B, L, C, H);
  if (B == 0 || L == 0) return;
  const int blocks = block_count("causal_linear_attention_forward", "B x H", static_cast<long long>(B) * H);
  causal_linear_attention_forward_kernel<<<blocks, kLinearThreads, shared_bytes(C / H, 4)>>>(out, den, phi_q, phi_k,
                                                                                             v, L, C, H, eps);
  check_launch("causal_linear_attention_forward_kernel");
}

void causal_linear_attention_backward(float* dphi_q, float* dphi_k, float* dv, const float* dout, const float* phi_q,
                                      const float* phi_k, const float* v, const float* out, const float* den, int B,
                                      int L, int C, int H) {
  check_linear_sizes("causal_linear_attention_backward", B, L, C, H);
  if (B == 0 || L == 0) return;
  const int blocks = block_count("causal_linear_attention_backward", "B x H", static_cast<long long>(B) * H);
  causal_linear_attention_backward_kernel<<<blocks, kLinearThreads, shared_bytes(C / H, 5)>>>(
      dphi_q, dphi_k, dv, dout, phi_q, phi_k, v, out, den, L, C, H);
  check_launch("causal_linear_attention_backward_kernel");
}

void linear_attention_step(float* out, float* s, float* s_carry, float* z, float* z_carry, const float* phi_q,
                           const float* phi_k, const float* v, int B, int C, int H, float eps) {
  check_linear_sizes("linear_attention_step", B, 1, C, H);
  if (B == 0) return;
  const int blocks = block_count("linear_attention_step", "B x H", static_cast<long long>(B) * H);
  linear_attention_step_kernel<<<blocks, kLinearThreads>>>(out, s, s_carry, z, z_carry, phi_q, phi_k, v, C, H, eps);
  check_launch("linear_attention_step_kernel");
}

}  // namespace aaren::gpu
