#pragma once
// How the attention kernels map onto the GPU, shared by the forward and the backward: one block
// per (batch row, head) sequence, which it scans chunk by chunk, its warps splitting each chunk
// into runs of consecutive tokens. The sequences of a batch are independent, so B H blocks fill
// the GPU without any coordination between blocks.
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/prefix_attention.hpp"
#include "gpu/warp_state.cuh"

namespace aaren::gpu {

// Four warps: a block syncs once per chunk, so more warps would make every warp wait for more
// others, and fewer would give each chunk less parallel work between the syncs.
constexpr int kWarpsPerBlock = 4;
constexpr int kThreadsPerBlock = kWarpsPerBlock * kWarpSize;

// Checks the sizes of a call and returns its number of blocks (one per sequence).
inline int attention_blocks(const char* function, int batch, int n, int heads, int d) {
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument(std::string(function) + ": " + what);
  };
  if (batch < 0 || n < 0) fail("batch and N must not be negative");
  if (heads < 1) fail("there must be at least one head, got " + std::to_string(heads));
  if (d < 1 || d > kMaxHeadDim)
    fail("the head dimension must be between 1 and " + std::to_string(kMaxHeadDim) + ", got " + std::to_string(d));
  const long long blocks = static_cast<long long>(batch) * heads;
  if (blocks > INT_MAX) fail("batch x heads = " + std::to_string(blocks) + " exceeds the launchable blocks");
  return static_cast<int>(blocks);
}

// Calls launch(std::integral_constant<int, E>) with E = the elements of a d-vector each lane owns:
// the smallest of 1, 2, 4, 8 with 32 E >= d, so registers are sized at compile time.
template <class Launch>
void with_lane_elements(int d, Launch&& launch) {
  if (d <= kWarpSize) launch(std::integral_constant<int, 1>{});
  else if (d <= 2 * kWarpSize) launch(std::integral_constant<int, 2>{});
  else if (d <= 4 * kWarpSize) launch(std::integral_constant<int, 4>{});
  else launch(std::integral_constant<int, 8>{});
}

}  // namespace aaren::gpu
