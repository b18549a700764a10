#include "core/data/windows.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace aaren {

WindowIndex make_window_index(RowRange segment, int seq_len, int horizon) {
  if (seq_len < 1 || horizon < 1)
    throw std::invalid_argument("look-back " + std::to_string(seq_len) + " and horizon " + std::to_string(horizon) +
                                " must both be at least 1");
  if (segment.begin < 0 || segment.size() < seq_len + horizon)
    throw std::invalid_argument("rows " + std::to_string(segment.begin) + " to " + std::to_string(segment.end) +
                                " hold no window of look-back " + std::to_string(seq_len) + " + horizon " +
                                std::to_string(horizon));
  return {segment, seq_len, horizon};
}

void gather_windows(std::span<float> inputs, std::span<float> targets, std::span<const float> series, int channels,
                    const WindowIndex& index, std::span<const int> samples) {
  const std::size_t c = std::size_t(std::max(channels, 0));
  const std::size_t batch = samples.size();
  const std::size_t input_size = std::size_t(index.seq_len) * c;
  const std::size_t target_size = std::size_t(index.horizon) * c;
  if (c == 0 || series.size() % c != 0 || std::size_t(index.segment.end) * c > series.size())
    throw std::invalid_argument("the series of " + std::to_string(series.size()) + " numbers does not hold rows " +
                                std::to_string(index.segment.begin) + " to " + std::to_string(index.segment.end) +
                                " of " + std::to_string(channels) + " channels");
  if (inputs.size() != batch * input_size || targets.size() != batch * target_size)
    throw std::invalid_argument("window buffers of " + std::to_string(inputs.size()) + " and " +
                                std::to_string(targets.size()) + " numbers do not fit " + std::to_string(batch) +
                                " samples of look-back " + std::to_string(index.seq_len) + " and horizon " +
                                std::to_string(index.horizon));
  const int count = index.sample_count();
  for (std::size_t b = 0; b < batch; ++b) {
    const int sample = samples[b];
    if (sample < 0 || sample >= count)
      throw std::invalid_argument("sample " + std::to_string(sample) + " is outside the " + std::to_string(count) +
                                  " samples of the segment");
    const auto input = series.begin() + std::ptrdiff_t(std::size_t(index.input_row(sample)) * c);
    std::copy(input, input + std::ptrdiff_t(input_size), inputs.begin() + std::ptrdiff_t(b * input_size));
    const auto target = series.begin() + std::ptrdiff_t(std::size_t(index.target_row(sample)) * c);
    std::copy(target, target + std::ptrdiff_t(target_size), targets.begin() + std::ptrdiff_t(b * target_size));
  }
}

}  // namespace aaren
