#include "core/events/event_windows.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace aaren {

std::vector<EventWindowRange> cut_event_windows(std::span<const EventSequence> sequences, int capacity) {
  if (capacity < 2)
    throw std::invalid_argument("a window of events must hold at least 2 (one to condition on, one to predict), got " +
                                std::to_string(capacity));
  std::vector<EventWindowRange> ranges;
  for (std::size_t s = 0; s < sequences.size(); ++s) {
    const EventSequence& sequence = sequences[s];
    const int n = int(sequence.times.size());
    for (int begin = 0; begin + 1 < n;) {
      EventWindowRange range;
      range.sequence = int(s);
      range.begin = begin;
      range.end = std::min(begin + capacity, n);
      range.origin = begin == 0 ? sequence.origin : sequence.times[std::size_t(begin) - 1];
      ranges.push_back(range);
      if (range.end == n) break;
      begin = range.end - 1;
    }
  }
  return ranges;
}

long scored_event_count(std::span<const EventSequence> sequences) {
  long count = 0;
  for (const EventSequence& sequence : sequences) count += std::max(long(sequence.times.size()) - 1, 0L);
  return count;
}

EventWindows::EventWindows(std::span<const EventSequence> sequences, int capacity)
    : sequences_(sequences), ranges_(cut_event_windows(sequences, capacity)) {
  for (const EventWindowRange& range : ranges_) scored_ += range.scored();
}

EventWindow EventWindows::window(long i) const {
  const EventWindowRange& r = range(i);
  const EventSequence& sequence = sequences_[std::size_t(r.sequence)];
  const std::size_t begin = std::size_t(r.begin), count = std::size_t(r.size());
  EventWindow w;
  w.origin = r.origin;
  w.times = std::span<const double>(sequence.times).subspan(begin, count);
  if (!sequence.marks.empty()) w.marks = std::span<const int>(sequence.marks).subspan(begin, count);
  if (!sequence.features.empty()) w.features = std::span<const double>(sequence.features).subspan(begin, count);
  return w;
}

}  // namespace aaren
