#pragma once
// Sliding windows over a scaled series: the samples a forecaster trains and is tested on.
// Sample i of a segment reads input rows [begin + i, begin + i + T) and target rows
// [begin + i + T, begin + i + T + H); consecutive samples overlap by all but one row.
#include <span>

#include "core/data/split.hpp"

namespace aaren {

struct WindowIndex {
  RowRange segment;  // the rows the windows may read, look-back reach included
  int seq_len = 0;   // T
  int horizon = 0;   // H

  int sample_count() const { return segment.size() - seq_len - horizon + 1; }
  int input_row(int sample) const { return segment.begin + sample; }
  int target_row(int sample) const { return segment.begin + sample + seq_len; }
};

// Throws std::invalid_argument for lengths below 1 or a segment shorter than T + H.
WindowIndex make_window_index(RowRange segment, int seq_len, int horizon);

// Copies the windows of `samples` into caller-owned buffers; allocates nothing. Throws
// std::invalid_argument when a buffer's size does not match or a sample is out of range.
void gather_windows(std::span<float> inputs /*(B, T, C)*/, std::span<float> targets /*(B, H, C)*/,
                    std::span<const float> series /*(rows, C)*/, int channels, const WindowIndex& index,
                    std::span<const int> samples /*(B)*/);

}  // namespace aaren
