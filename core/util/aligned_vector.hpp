#pragma once
// Activation buffers start on Eigen's widest alignment. Eigen's vectorized sums peel a different
// number of leading elements depending on a pointer's alignment, which changes the rounding; with
// every buffer aligned alike, the same computation gives the same bits in every worker thread,
// which is what makes training bitwise reproducible for any number of threads.
#include <vector>

#include "core/util/eigen_core.hpp"

namespace aaren {

template <class T>
using AlignedVector = std::vector<T, Eigen::aligned_allocator<T>>;

}  // namespace aaren
