#pragma once
// The windows an event model trains and is evaluated on: each sequence of a part cut into
// consecutive windows of at most W events (W = the model's seq_len), so that a long sequence
// becomes several examples of bounded cost.
//
// Which events are scored. Within a window, position i predicts event i + 1 (event_model.hpp), so
// a window's first event is context only: its gap is an input, never a target. Consecutive windows
// of a sequence therefore share one event: a window ends at event e - 1 and the next one starts
// there, with the time of event e - 2 as its origin, so that the shared event's gap is a real
// input. With n events, the windows are
//   [0, min(W, n)), [W - 1, min(2W - 1, n)), [2W - 2, ...), ...  (starts advance by W - 1)
// and their scored events, 1..e-1 of each, cover events 1..n-1 of the sequence exactly once. The
// first event of a sequence is never scored: the model has no position before it to predict it
// from. Its own gap is an input when it is known (EventSequence::first_gap_known: the part
// continues an earlier one, or the process was observed from its origin); otherwise the first
// window's origin is the first event's time and that input gap is 0. Every NLL, RMSE and accuracy
// reported over a part is over exactly these events: sum over its sequences of (n - 1), each
// event's gap counted once; scored_gap_nll (event_baselines.hpp) scores reference processes over
// the same events.
#include <span>
#include <vector>

#include "core/events/event_log.hpp"
#include "core/events/event_model.hpp"

namespace aaren {

// Events [begin, end) of sequence `sequence`; the gap of `begin` is measured from `origin`.
struct EventWindowRange {
  int sequence = 0;
  int begin = 0, end = 0;
  double origin = 0;
  int size() const { return end - begin; }
  int scored() const { return end - begin - 1; }
};

// The windows of `sequences` in order (sequence by sequence, then by time). A sequence of fewer
// than 2 events gives none. Throws std::invalid_argument when capacity < 2 (a window needs one
// event to condition on and one to predict).
std::vector<EventWindowRange> cut_event_windows(std::span<const EventSequence> sequences, int capacity);

// The events the windows score: the sum over sequences of max(n - 1, 0).
long scored_event_count(std::span<const EventSequence> sequences);

// The windows of one part, as a training task reads them. Refers to `sequences`, which must
// outlive it; the marks and features are passed on as the sequences hold them (the features
// already standardized).
class EventWindows {
 public:
  EventWindows(std::span<const EventSequence> sequences, int capacity);

  long size() const { return long(ranges_.size()); }
  const EventWindowRange& range(long i) const { return ranges_[std::size_t(i)]; }
  EventWindow window(long i) const;
  long scored_events() const { return scored_; }

 private:
  std::span<const EventSequence> sequences_;
  std::vector<EventWindowRange> ranges_;
  long scored_ = 0;
};

}  // namespace aaren
