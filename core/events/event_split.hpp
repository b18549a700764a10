#pragma once
// Train / validation / test parts of an event log. A log of several sequences is split by whole
// sequences in file order, so no sequence is seen in two parts. A log of one long sequence is cut
// by time at the fractions of its events; the validation and test parts keep the time of the event
// just before them as their origin, so their first gap is a real one. Both use the rounding of the
// time-series split (train and test rounded down, validation takes the rest).
#include <span>
#include <vector>

#include "core/data/split.hpp"
#include "core/events/event_log.hpp"

namespace aaren {

inline constexpr SplitFractions default_event_split_fractions{0.6, 0.2, 0.2};

enum class EventSplitMethod { by_sequence, by_time };

struct EventSplit {
  EventSplitMethod method = EventSplitMethod::by_sequence;
  std::vector<EventSequence> train, validation, test;
  double train_mean_gap = 0;  // the mean gap of the training part: the time scale a model works in
  int marks = 0;              // mark types (the log's mark_names); 0 when unmarked
};

// Throws std::invalid_argument for fractions that are not positive or do not add up to 1, and
// std::runtime_error naming the file, line and column when a sequence has fewer than 2 events (no
// gap to learn from), when there are too few sequences or events for three non-empty parts, or
// when the training part's events all share one time.
EventSplit split_event_log(const EventLog& log, const SplitFractions& fractions = default_event_split_fractions);

// Over every gap of the sequences (event_gaps); 0 when they have none.
double mean_gap(std::span<const EventSequence> sequences);

}  // namespace aaren
