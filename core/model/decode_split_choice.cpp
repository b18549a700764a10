#include "core/model/decode_split_choice.hpp"

#include <algorithm>

namespace aaren {

namespace {

double median_of(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const std::size_t mid = xs.size() / 2;
  return xs.size() % 2 ? xs[mid] : 0.5 * (xs[mid - 1] + xs[mid]);
}

// A split must save a tenth of the time to be kept: less is within the noise of a shared machine,
// and one core then leaves the other to the rest of the system.
constexpr double kClearlyFaster = 0.9;

}  // namespace

DecodeSplitChoice::DecodeSplitChoice(std::size_t min_bytes, int trials)
    : min_bytes_(min_bytes), trials_(std::max(1, trials)) {}

DecodeSplitChoice::Plan DecodeSplitChoice::next(std::size_t bytes) {
  if (bytes < min_bytes_) return {};
  if (!measuring_ && (measured_at_ == 0 || bytes >= 2 * measured_at_)) {
    measuring_ = true;
    measured_at_ = bytes;
    seconds_[0].clear();
    seconds_[1].clear();
  }
  if (!measuring_) return {split_, false};
  // Alternating, so a change in the machine's load falls on both kinds alike.
  last_split_ = seconds_[1].size() < seconds_[0].size();
  return {last_split_, true};
}

void DecodeSplitChoice::record(double seconds) {
  if (!measuring_) return;
  seconds_[last_split_ ? 1 : 0].push_back(seconds);
  if (int(seconds_[0].size()) < trials_ || int(seconds_[1].size()) < trials_) return;
  split_ = median_of(seconds_[1]) < kClearlyFaster * median_of(seconds_[0]);
  measuring_ = false;
}

void DecodeSplitChoice::reset() { *this = DecodeSplitChoice(min_bytes_, trials_); }

}  // namespace aaren
