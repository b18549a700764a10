// The Transformer's causal multi-head softmax attention on the GPU (the CPU reference is
// core/nn/causal_attention.cpp). One block per query row of one head: its threads split the keys
// 0..t for the scores, then the head's columns for the weighted sums. The decode step, one block
// per stream and head, takes the KV cache a chunk of keys at a time with a running softmax.
#include <cmath>

#include "gpu/cuda_check.hpp"
#include "gpu/layer_kernels.cuh"
#include "gpu/layers.hpp"

namespace aaren::gpu {

namespace {

constexpr int kAttentionThreads = 128;

// Where head h of sequence b starts in a (B, L, C) matrix (its rows are C apart), and its width.
struct HeadView {
  long long head;  // the offset of (b, 0, h d)
  int d;
};

__device__ __forceinline__ HeadView head_view(long long sequence /*b H + h*/, int L, int C, int H) {
  const int d = C / H;
  return {(sequence / H) * L * C + (sequence % H) * d, d};
}

__device__ __forceinline__ float dot(const float* a, const float* b, int d) {
  float sum = 0.0f;
  for (int e = 0; e < d; ++e) sum += a[e] * b[e];
  return sum;
}

// Row t of head h: p = softmax(scale K q_t) over keys 0..t (shifted by the max score, as on the
// CPU), kept in probs with zeros after t, and out_t = sum_j p_j v_j. The weights are staged in the
// probs row itself, which this block owns.
__global__ void __launch_bounds__(kAttentionThreads)
    causal_attention_forward_kernel(float* __restrict__ out, float* __restrict__ probs, const float* __restrict__ q,
                                    const float* __restrict__ k, const float* __restrict__ v, int L, int C, int H,
                                    float scale) {
  __shared__ float scratch[kMaxBlockWarps];
  const long long row = blockIdx.x;  // (b H + h) L + t
  const int t = static_cast<int>(row % L);
  const HeadView view = head_view(row / L, L, C, H);
  const float* q_row = q + view.head + static_cast<long long>(t) * C;
  float* p = probs + row * L;

  float local_max = -INFINITY;
  for (int j = threadIdx.x; j <= t; j += blockDim.x) {
    const float s = scale * dot(q_row, k + view.head + static_cast<long long>(j) * C, view.d);
    p[j] = s;
    local_max = fmaxf(local_max, s);
  }
  const float max_score = block_reduce_max<kAttentionThreads>(local_max, scratch);
  float local_sum = 0.0f;
  for (int j = threadIdx.x; j <= t; j += blockDim.x) {
    const float e = expf(p[j] - max_score);
    p[j] = e;
    local_sum += e;
  }
  const float inverse_sum = 1.0f / block_reduce_sum<kAttentionThreads>(local_sum, scratch);
  for (int j = threadIdx.x; j <= t; j += blockDim.x) p[j] *= inverse_sum;
  for (int j = t + 1 + threadIdx.x; j < L; j += blockDim.x) p[j] = 0.0f;
  __syncthreads();  // every weight is written before any thread reads them all

  float* out_row = out + view.head + static_cast<long long>(t) * C;
  for (int e = threadIdx.x; e < view.d; e += blockDim.x) {
    float sum = 0.0f;
    for (int j = 0; j <= t; ++j) sum += p[j] * v[view.head + static_cast<long long>(j) * C + e];
    out_row[e] = sum;
  }
}

// The gradient of row t (p its weights, g = dout_t): dp_j = g . v_j, D_t = sum_j p_j dp_j,
//   ds_j = scale p_j (dp_j - D_t),  dq_t = sum_{j<=t} ds_j k_j,
//   dk_i = sum_{t>=i} ds_{t,i} q_t,  dv_i = sum_{t>=i} p_{t,i} g_t.
// Three launches, each writing its own output with no atomics: dq by rows (which also leaves D_t
// in the first column of head h of dv's row t, the only scratch the key gradient needs), dk by
// key rows (reading those D_t), then dv by value rows (overwriting them).
__global__ void __launch_bounds__(kAttentionThreads)
    causal_attention_query_grad_kernel(float* __restrict__ dq, float* __restrict__ row_dots,
                                       const float* __restrict__ dout, const float* __restrict__ k,
                                       const float* __restrict__ v, const float* __restrict__ probs, int L, int C,
                                       int H, float scale) {
  __shared__ float scratch[kMaxBlockWarps];
  __shared__ float ds[kAttentionThreads];
  const long long row = blockIdx.x;  // (b H + h) L + t
  const int t = static_cast<int>(row % L);
  const HeadView view = head_view(row / L, L, C, H);
  const long long row_offset = view.head + static_cast<long long>(t) * C;
  const float* g = dout + row_offset;
  const float* p = probs + row * L;

  float local = 0.0f;
  for (int j = threadIdx.x; j <= t; j += blockDim.x)
    local += p[j] * dot(g, v + view.head + static_cast<long long>(j) * C, view.d);
  const float row_dot = block_reduce_sum<kAttentionThreads>(local, scratch);
  if (threadIdx.x == 0) row_dots[row_offset] = row_dot;

  float* dq_row = dq + row_offset;
  for (int first = 0; first <= t; first += blockDim.x) {
    const int j = first + threadIdx.x;
    if (j <= t) {
      const float dp = dot(g, v + view.head + static_cast<long long>(j) * C, view.d);
      ds[threadIdx.x] = scale * p[j] * (dp - row_dot);
    }
    __syncthreads();
    const int keys = min(static_cast<int>(blockDim.x), t + 1 - first);
    for (int e = threadIdx.x; e < view.d; e += blockDim.x) {
      float sum = first == 0 ? 0.0f : dq_row[e];
      for (int r = 0; r < keys; ++r) sum += ds[r] * k[view.head + static_cast<long long>(first + r) * C + e];
      dq_row[e] = sum;
    }
    __syncthreads();  // ds is refilled by the next chunk
  }
}

__global__ void __launch_bounds__(kAttentionThreads)
    causal_attention_key_grad_kernel(float* __restrict__ dk, const float* __restrict__ row_dots,
                                     const float* __restrict__ dout, const float* __restrict__ q,
                                     const float* __restrict__ v, const float* __restrict__ probs, int L, int C,
                                     int H, float scale) {
  __shared__ float ds[kAttentionThreads];
  const long long key_row = blockIdx.x;  // (b H + h) L + i
  const int i = static_cast<int>(key_row % L);
  const long long sequence = key_row / L;
  const HeadView view = head_view(sequence, L, C, H);
  const float* v_i = v + view.head + static_cast<long long>(i) * C;
  const float* p_column = probs + sequence * L * L + i;  // p_{t,i} at t L

  float* dk_row = dk + view.head + static_cast<long long>(i) * C;
  for (int first = i; first < L; first += blockDim.x) {
    const int t = first + threadIdx.x;
    if (t < L) {
      const long long row_offset = view.head + static_cast<long long>(t) * C;
      const float dp = dot(dout + row_offset, v_i, view.d);
      ds[threadIdx.x] = scale * p_column[static_cast<long long>(t) * L] * (dp - row_dots[row_offset]);
    }
    __syncthreads();
    const int rows = min(static_cast<int>(blockDim.x), L - first);
    for (int e = threadIdx.x; e < view.d; e += blockDim.x) {
      float sum = first == i ? 0.0f : dk_row[e];
      for (int r = 0; r < rows; ++r) sum += ds[r] * q[view.head + static_cast<long long>(first + r) * C + e];
      dk_row[e] = sum;
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kAttentionThreads)
    causal_attention_value_grad_kernel(float* __restrict__ dv, const float* __restrict__ dout,
                                       const float* __restrict__ probs, int L, int C, int H) {
  const long long value_row = blockIdx.x;  // (b H + h) L + i
  const int i = static_cast<int>(value_row % L);
  const long long sequence = value_row / L;
  const HeadView view = head_view(sequence, L, C, H);
  const float* p_column = probs + sequence * L * L + i;
  float* dv_row = dv + view.head + static_cast<long long>(i) * C;
  for (int e = threadIdx.x; e < view.d; e += blockDim.x) {
    float sum = 0.0f;
    for (int t = i; t < L; ++t)
      sum += p_column[static_cast<long long>(t) * L] * dout[view.head + static_cast<long long>(t) * C + e];
    dv_row[e] = sum;
  }
}

// The new token of stream b against cache rows 0..n-1, a chunk of kAttentionThreads keys at a time:
// the running max, the running sum of weights and the weighted sum of values (kept in out) are
// rescaled whenever a chunk raises the max, as core/nn/causal_attention.cpp does block by block.
__global__ void __launch_bounds__(kAttentionThreads)
    causal_attention_decode_kernel(float* __restrict__ out, const float* __restrict__ q,
                                   const float* __restrict__ k_cache, const float* __restrict__ v_cache, int n,
                                   int capacity, int C, int H, float scale) {
  __shared__ float scratch[kMaxBlockWarps];
  __shared__ float weights[kAttentionThreads];
  const long long sequence = blockIdx.x;  // b H + h
  const int d = C / H;
  const long long column = (sequence / H) * C + (sequence % H) * d;  // (b, h d) in a (B, C) matrix
  const long long cache = (sequence / H) * capacity * C + (sequence % H) * d;
  const float* q_head = q + column;
  float* out_head = out + column;

  float running_max = -INFINITY;
  float weight_sum = 0.0f;
  for (int first = 0; first < n; first += blockDim.x) {
    const int j = first + threadIdx.x;
    const float s = j < n ? scale * dot(q_head, k_cache + cache + static_cast<long long>(j) * C, d) : -INFINITY;
    const float new_max = fmaxf(running_max, block_reduce_max<kAttentionThreads>(s, scratch));
    const float rescale = expf(running_max - new_max);  // exp(-inf) = 0 before the first chunk
    const float weight = j < n ? expf(s - new_max) : 0.0f;
    weights[threadIdx.x] = weight;
    weight_sum = weight_sum * rescale + block_reduce_sum<kAttentionThreads>(weight, scratch);  // its syncs publish weights
    const int rows = min(static_cast<int>(blockDim.x), n - first);
    for (int e = threadIdx.x; e < d; e += blockDim.x) {
      float sum = first == 0 ? 0.0f : out_head[e] * rescale;
      for (int r = 0; r < rows; ++r) sum += weights[r] * v_cache[cache + static_cast<long long>(first + r) * C + e];
      out_head[e] = sum;
    }
    running_max = new_max;
    __syncthreads();  // weights is refilled by the next chunk
  }
  const float inverse_sum = 1.0f / weight_sum;
  for (int e = threadIdx.x; e < d; e += blockDim.x) out_head[e] *= inverse_sum;
}

// Checks the sizes and returns the number of (sequence, row) blocks.
int attention_row_blocks(const char* function, int B, int L, int C, int H) {
  require_non_negative(function, "B", B);
  require_positive(function, "L", L);
  require_heads(function, C, H);
  return block_count(function, "B x H x L", static_cast<long long>(B) * H * L);
}

float score_scale(int C, int H) { return 1.0f / std::sqrt(static_cast<float>(C / H)); }

}  // namespace

void causal_attention_forward(float* out, float* probs, const float* q, const float* k, const float* v, int B, int L,
                              int C, int H) {
  const int blocks = attention_row_blocks("causal_attention_forward", B, L, C, H);
  if (blocks == 0) return;
  causal_attention_forward_kernel<<<blocks, kAttentionThreads>>>(out, probs, q, k, v, L, C, H, score_scale(C, H));
  check_launch("causal_attention_forward_kernel");
}

void causal_attention_backward(float* dq, float* dk, float* dv, const float* dout, const float* q, const float* k,
                               const float* v, const float* probs, int B, int L, int C, int H) {
  const int blocks = attention_row_blocks("causal_attention_backward", B, L, C, H);
  if (blocks == 0) return;
  const float scale = score_scale(C, H);
  causal_attention_query_grad_kernel<<<blocks, kAttentionThreads>>>(dq, dv, dout, k, v, probs, L, C, H, scale);
  check_launch("causal_attention_query_grad_kernel");
  causal_attention_key_grad_kernel<<<blocks, kAttentionThreads>>>(dk, dv, dout, q, v, probs, L, C, H, scale);
  check_launch("causal_attention_key_grad_kernel");
  causal_attention_value_grad_kernel<<<blocks, kAttentionThreads>>>(dv, dout, probs, L, C, H);
  check_launch("causal_attention_value_grad_kernel");
}

void causal_attention_decode(float* out, const float* q, const float* k_cache, const float* v_cache, int B,
                             int t_plus_1, int capacity, int C, int H) {
  const char* function = "causal_attention_decode";
  require_non_negative(function, "B", B);
  require_heads(function, C, H);
  require_positive(function, "t_plus_1 (the tokens in the cache, the new one included)", t_plus_1);
  if (t_plus_1 > capacity)
    throw_bad_size(function, "the cache holds at most " + std::to_string(capacity) + " tokens, asked to attend over " +
                                 std::to_string(t_plus_1));
  const int blocks = block_count(function, "B x H", static_cast<long long>(B) * H);
  if (blocks == 0) return;
  causal_attention_decode_kernel<<<blocks, kAttentionThreads>>>(out, q, k_cache, v_cache, t_plus_1, capacity, C, H,
                                                                score_scale(C, H));
  check_launch("causal_attention_decode_kernel");
}

}  // namespace aaren::gpu
