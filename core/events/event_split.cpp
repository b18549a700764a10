#include "core/events/event_split.hpp"

#include <stdexcept>
#include <string>

#include "core/io/matrix_csv.hpp"

namespace aaren {

namespace {

std::string describe(const SplitFractions& f) {
  return format_number(f.train) + "/" + format_number(f.validation) + "/" + format_number(f.test);
}

ChronologicalSplit split_counts(int count, const SplitFractions& fractions, const std::string& too_few) {
  try {
    return split_by_fractions(count, fractions);
  } catch (const std::invalid_argument&) {
    throw std::runtime_error(too_few);
  }
}

void require_two_events(const EventLog& log, const EventSequence& sequence) {
  if (sequence.times.size() >= 2) return;
  const EventLogColumns& c = log.columns;
  const std::string where = log.source + ", line " + std::to_string(sequence.first_line) + ", column '" +
                            (c.sequence.empty() ? c.time : c.sequence) + "': ";
  const std::string what = c.sequence.empty() ? "the log has " : "sequence '" + sequence.id + "' has ";
  throw std::runtime_error(where + what + (sequence.times.empty() ? "no events" : "1 event") +
                           "; training needs at least 2 events per sequence (one gap)");
}

// Events [begin, end) of `whole`, with the time just before them as their origin when there is one.
EventSequence cut(const EventSequence& whole, int begin, int end) {
  EventSequence part;
  part.id = whole.id;
  const auto slice = [&](const auto& all, auto& into) {
    if (!all.empty()) into.assign(all.begin() + begin, all.begin() + end);
  };
  slice(whole.times, part.times);
  slice(whole.marks, part.marks);
  slice(whole.features, part.features);
  if (begin == 0) {
    part.origin = whole.origin;
    part.first_gap_known = whole.first_gap_known;
    part.first_line = whole.first_line;
  } else {
    part.origin = whole.times[std::size_t(begin) - 1];
    part.first_gap_known = true;
  }
  return part;
}

}  // namespace

double mean_gap(std::span<const EventSequence> sequences) {
  double sum = 0;
  long count = 0;
  for (const EventSequence& sequence : sequences) {
    const std::vector<double> gaps = event_gaps(sequence);
    for (double gap : gaps) sum += gap;
    count += long(gaps.size());
  }
  return count > 0 ? sum / double(count) : 0.0;
}

EventSplit split_event_log(const EventLog& log, const SplitFractions& fractions) {
  validate_fractions(fractions);
  if (log.sequences.empty()) throw std::runtime_error(log.source + ": the log has no events to split");
  for (const EventSequence& sequence : log.sequences) require_two_events(log, sequence);
  EventSplit split;
  split.marks = int(log.mark_names.size());
  if (log.sequences.size() > 1) {
    const int count = int(log.sequences.size());
    const ChronologicalSplit parts =
        split_counts(count, fractions,
                     log.source + ": " + std::to_string(count) + " sequences are too few to split " + describe(fractions) +
                         " by sequence into three non-empty parts");
    const auto take = [&](const RowRange& range) {
      return std::vector<EventSequence>(log.sequences.begin() + range.begin, log.sequences.begin() + range.end);
    };
    split.method = EventSplitMethod::by_sequence;
    split.train = take(parts.train);
    split.validation = take(parts.validation);
    split.test = take(parts.test);
  } else {
    const EventSequence& whole = log.sequences.front();
    const int count = int(whole.times.size());
    const std::string too_few = log.source + ": " + std::to_string(count) + " events are too few to split " +
                                describe(fractions) +
                                " by time; the training part needs at least 2 events and the others 1 each";
    const ChronologicalSplit parts = split_counts(count, fractions, too_few);
    if (parts.train.size() < 2) throw std::runtime_error(too_few);
    split.method = EventSplitMethod::by_time;
    split.train = {cut(whole, parts.train.begin, parts.train.end)};
    split.validation = {cut(whole, parts.validation.begin, parts.validation.end)};
    split.test = {cut(whole, parts.test.begin, parts.test.end)};
  }
  split.train_mean_gap = mean_gap(split.train);
  if (!(split.train_mean_gap > 0))
    throw std::runtime_error(log.source + ": every event of the training part has the same time, so the gaps "
                             "between events give no time scale");
  return split;
}

}  // namespace aaren
