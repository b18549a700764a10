#pragma once
// What the layer kernels of gpu/layers.hpp share: the size checks every entry point runs before
// launching, the launch shapes, and the block-wide reductions.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/warp_state.cuh"

namespace aaren::gpu {

// Size checks, each naming the function and the size: "layernorm_forward: C must be positive, got 0".
[[noreturn]] inline void throw_bad_size(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

inline void require_positive(const char* function, const char* name, long long value) {
  if (value < 1) throw_bad_size(function, std::string(name) + " must be positive, got " + std::to_string(value));
}

inline void require_non_negative(const char* function, const char* name, long long value) {
  if (value < 0)
    throw_bad_size(function, std::string(name) + " must not be negative, got " + std::to_string(value));
}

// C = H d: every head gets the same number of columns.
inline void require_heads(const char* function, int C, int H) {
  require_positive(function, "C", C);
  require_positive(function, "H", H);
  if (C % H != 0)
    throw_bad_size(function, "the width C = " + std::to_string(C) + " cannot be split into H = " +
                                 std::to_string(H) + " heads of equal size");
}

// A launch of one block per item (a row, a sequence) needs count <= INT_MAX blocks.
inline int block_count(const char* function, const char* what, long long count) {
  if (count > INT_MAX)
    throw_bad_size(function, std::string(what) + " = " + std::to_string(count) + " exceeds the launchable blocks");
  return static_cast<int>(count);
}

// Element-wise kernels loop over their elements with a grid stride, so any long N takes a grid of
// at most kMaxStrideBlocks blocks (plenty to fill any GPU).
constexpr int kStrideThreads = 256;
constexpr long long kMaxStrideBlocks = 8192;

inline int stride_blocks(long long n) {
  return static_cast<int>(std::min((n + kStrideThreads - 1) / kStrideThreads, kMaxStrideBlocks));
}

// Sums over the rows of a (B, C) matrix (sum_rows_add, LayerNorm's parameter gradients): a block
// of 32 x 32 threads per 32 columns walks the rows 32 at a time, each thread keeping the partial
// sum of one column over every 32nd row (loads coalesced along the row); the 32 partials of a
// column are then added in a fixed order, so the result is the same on every run (no atomics).
constexpr int kColumnsPerBlock = 32;
constexpr int kRowLanes = 32;

inline int column_blocks(int C) {
  return static_cast<int>((static_cast<long long>(C) + kColumnsPerBlock - 1) / kColumnsPerBlock);
}

__device__ __forceinline__ long long global_thread() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ long long grid_threads() { return static_cast<long long>(gridDim.x) * blockDim.x; }

template <class T>
__device__ __forceinline__ T warp_reduce_sum(T x) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(kFullWarp, x, offset);
  return x;
}

__device__ __forceinline__ float warp_reduce_max(float x) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) x = fmaxf(x, __shfl_xor_sync(kFullWarp, x, offset));
  return x;
}

// The largest block the reductions below take, and the scratch they need in shared memory.
constexpr int kMaxBlockWarps = 32;

// Every thread of the block gets the same sum (or max) of x over the block: each warp reduces, its
// lane 0 publishes, and every thread adds the warps' results in the same order. Must be called by
// every thread of the block; scratch may be reused by the next call (the trailing sync sees to it).
template <class T>
__device__ T block_reduce_sum(T x, T (&scratch)[kMaxBlockWarps]) {
  const int warps = (blockDim.x + kWarpSize - 1) / kWarpSize;
  x = warp_reduce_sum(x);
  if (threadIdx.x % kWarpSize == 0) scratch[threadIdx.x / kWarpSize] = x;
  __syncthreads();
  T total = scratch[0];
  for (int w = 1; w < warps; ++w) total += scratch[w];
  __syncthreads();
  return total;
}

__device__ inline float block_reduce_max(float x, float (&scratch)[kMaxBlockWarps]) {
  const int warps = (blockDim.x + kWarpSize - 1) / kWarpSize;
  x = warp_reduce_max(x);
  if (threadIdx.x % kWarpSize == 0) scratch[threadIdx.x / kWarpSize] = x;
  __syncthreads();
  float result = scratch[0];
  for (int w = 1; w < warps; ++w) result = fmaxf(result, scratch[w]);
  __syncthreads();
  return result;
}

}  // namespace aaren::gpu
