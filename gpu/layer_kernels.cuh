#pragma once
// What the layer kernels of gpu/layers.hpp share: the size checks every entry point runs before
// launching, the launch shapes, the block-wide reductions, and the two-stage column reduction.
//
// Every kernel is queued on the calling thread's default stream: the backend is compiled with
// --default-stream per-thread (gpu/CMakeLists.txt), so a training thread and the Efficiency page's
// streaming thread never queue behind each other's work, and gpu::synchronize waits for the
// calling thread's work only.
#include <cuda_runtime.h>

#include <algorithm>
#include <cassert>
#include <climits>
#include <stdexcept>
#include <string>

#include "gpu/cuda_check.hpp"
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
static_assert(kStrideThreads % 32 == 0, "block sizes are whole warps: the shuffles use full-warp masks");

inline int stride_blocks(long long n) {
  return static_cast<int>(std::min((n + kStrideThreads - 1) / kStrideThreads, kMaxStrideBlocks));
}

// Sums over the rows of a (B, C) matrix (sum_rows_add, LayerNorm's parameter gradients), in two
// stages so that B L rows fill the GPU even when C is small (2 column blocks at d = 64):
//   1. a grid of (column blocks) x (row slices): a block of 32 x 32 threads sums one slice of rows
//      for 32 columns, each thread keeping the partial sum of one column over every 32nd row of
//      the slice (loads coalesced along the row), then adds its 32 lanes' partials in a fixed
//      order into partial[slice][column];
//   2. one thread per column adds the slices' partials in slice order onto the output.
// No atomics and a fixed order at every level: the result is the same bit for bit on every run.
constexpr int kColumnsPerBlock = 32;
constexpr int kRowLanes = 32;
static_assert(kColumnsPerBlock == 32, "a column block is one warp wide");
constexpr long long kRowsPerSlice = 128;  // 4 rows per lane: B L = 3072 rows at d = 64 make 48 blocks
constexpr long long kMaxRowSlices = 65535;  // gridDim.y

inline int column_blocks(int C) {
  return static_cast<int>((static_cast<long long>(C) + kColumnsPerBlock - 1) / kColumnsPerBlock);
}

// Rows per slice: kRowsPerSlice, or more where B is so large that the slices would not fit gridDim.y.
inline long long rows_per_slice(long long B) {
  const long long needed = (B + kMaxRowSlices - 1) / kMaxRowSlices;
  return std::max(kRowsPerSlice, (needed + kRowLanes - 1) / kRowLanes * kRowLanes);
}

inline int row_slices(long long B) {
  const long long per_slice = rows_per_slice(B);
  return static_cast<int>((B + per_slice - 1) / per_slice);
}

// Device memory for one call's partial results, taken from and given back to the stream-ordered
// pool of the calling thread's stream: no device-wide synchronization, and the pool reuses it.
class StreamScratch {
 public:
  explicit StreamScratch(std::size_t bytes) {
    AAREN_CUDA_CHECK(cudaMallocAsync(&data_, bytes, cudaStreamPerThread));
  }
  ~StreamScratch() {
    if (data_) cudaFreeAsync(data_, cudaStreamPerThread);
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  template <class T>
  T* as() {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
};

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

// The reductions' block size is a compile-time constant, checked to be whole warps: the warp
// reductions shuffle with a full-warp mask, which a partial last warp would break.
template <int kThreads>
__device__ __forceinline__ void require_block_size() {
  static_assert(kThreads % kWarpSize == 0 && kThreads <= kMaxBlockWarps * kWarpSize,
                "a reduction's block is 1 to 32 whole warps");
  assert(blockDim.x == kThreads && blockDim.y == 1 && blockDim.z == 1);
}

// Every thread of the block gets the same sum (or max) of x over the block: each warp reduces, its
// lane 0 publishes, and every thread adds the warps' results in the same order. Must be called by
// every thread of a block of kThreads threads; scratch may be reused by the next call (the
// trailing sync sees to it).
template <int kThreads, class T>
__device__ T block_reduce_sum(T x, T (&scratch)[kMaxBlockWarps]) {
  require_block_size<kThreads>();
  constexpr int kWarps = kThreads / kWarpSize;
  x = warp_reduce_sum(x);
  if (threadIdx.x % kWarpSize == 0) scratch[threadIdx.x / kWarpSize] = x;
  __syncthreads();
  T total = scratch[0];
  for (int w = 1; w < kWarps; ++w) total += scratch[w];
  __syncthreads();
  return total;
}

template <int kThreads>
__device__ inline float block_reduce_max(float x, float (&scratch)[kMaxBlockWarps]) {
  require_block_size<kThreads>();
  constexpr int kWarps = kThreads / kWarpSize;
  x = warp_reduce_max(x);
  if (threadIdx.x % kWarpSize == 0) scratch[threadIdx.x / kWarpSize] = x;
  __syncthreads();
  float result = scratch[0];
  for (int w = 1; w < kWarps; ++w) result = fmaxf(result, scratch[w]);
  __syncthreads();
  return result;
}

// Stage 1 of the column reduction: kSums sums at once (LayerNorm sums two), each term given by
// terms(row, column, float (&out)[kSums]). partial is (kSums, slices, C).
template <int kSums, class Terms>
__global__ void column_partials_kernel(float* __restrict__ partial, int B, int C, long long per_slice, Terms terms) {
  __shared__ float lanes[kSums][kRowLanes][kColumnsPerBlock + 1];  // + 1: no bank conflicts on the column reads
  const long long column = static_cast<long long>(blockIdx.x) * kColumnsPerBlock + threadIdx.x;
  const long long first = static_cast<long long>(blockIdx.y) * per_slice;
  const long long end = first + per_slice < B ? first + per_slice : B;
  float sums[kSums] = {};
  if (column < C)
    for (long long r = first + threadIdx.y; r < end; r += kRowLanes) {
      float term[kSums];
      terms(r, column, term);
#pragma unroll
      for (int k = 0; k < kSums; ++k) sums[k] += term[k];
    }
#pragma unroll
  for (int k = 0; k < kSums; ++k) lanes[k][threadIdx.y][threadIdx.x] = sums[k];
  __syncthreads();
  if (threadIdx.y == 0 && column < C) {
#pragma unroll
    for (int k = 0; k < kSums; ++k) {
      float total = 0.0f;
      for (int lane = 0; lane < kRowLanes; ++lane) total += lanes[k][lane][threadIdx.x];
      partial[(static_cast<long long>(k) * gridDim.y + blockIdx.y) * C + column] = total;
    }
  }
}

// Stage 2: out_k[column] += the sum of the slices' partials, in slice order.
template <int kSums>
struct ColumnOutputs {
  float* out[kSums];
};

template <int kSums>
__global__ void add_column_partials_kernel(ColumnOutputs<kSums> outputs, const float* __restrict__ partial,
                                           int slices, int C) {
  for (long long column = global_thread(); column < C; column += grid_threads()) {
#pragma unroll
    for (int k = 0; k < kSums; ++k) {
      float total = 0.0f;
      for (int s = 0; s < slices; ++s) total += partial[(static_cast<long long>(k) * slices + s) * C + column];
      outputs.out[k][column] += total;
    }
  }
}

// out_k (C) += sum over the B rows of terms_k(row, column), deterministically (see above).
template <int kSums, class Terms>
void column_sums_add(const char* kernel, ColumnOutputs<kSums> outputs, int B, int C, Terms terms) {
  const long long per_slice = rows_per_slice(B);
  const int slices = row_slices(B);
  StreamScratch partial(sizeof(float) * static_cast<std::size_t>(kSums) * static_cast<std::size_t>(slices) *
                        static_cast<std::size_t>(C));
  column_partials_kernel<kSums><<<dim3(column_blocks(C), slices), dim3(kColumnsPerBlock, kRowLanes)>>>(
      partial.as<float>(), B, C, per_slice, terms);
  check_launch(kernel);
  add_column_partials_kernel<kSums><<<stride_blocks(C), kStrideThreads>>>(outputs, partial.as<float>(), slices, C);
  check_launch(kernel);
}

}  // namespace aaren::gpu
