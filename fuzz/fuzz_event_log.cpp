// The event-log reader (core/events/event_log.hpp) on arbitrary text, with the columns and the use
// of marks detected. Refusing the text is fine; an accepted log must keep the promises of EventLog
// (events in every sequence, finite times that never go back, one mark or feature per event), and
// reading the text from a file must give the same log or the same refusal as reading it in memory.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/events/event_log.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

const std::string kSource = "events.csv";

void check_log(const aaren::EventLog& log) {
  require(!log.sequences.empty(), "a log has a sequence");
  const bool categorical = log.columns.mark_use == aaren::MarkUse::categorical && !log.columns.mark.empty();
  const bool feature = log.columns.mark_use == aaren::MarkUse::feature && !log.columns.mark.empty();
  require(categorical || log.mark_names.empty(), "mark names only with categorical marks");
  require(feature == !log.feature_name.empty(), "a feature name exactly with a feature column");
  for (const aaren::EventSequence& sequence : log.sequences) {
    const std::size_t n = sequence.times.size();
    require(n > 0, "every sequence has an event");
    require(std::all_of(sequence.times.begin(), sequence.times.end(), [](double t) { return std::isfinite(t); }),
            "every time is finite");
    require(std::is_sorted(sequence.times.begin(), sequence.times.end()), "times never go back within a sequence");
    require(sequence.marks.size() == (categorical ? n : 0), "one mark per event exactly with categorical marks");
    for (const int mark : sequence.marks)
      require(mark >= 0 && std::size_t(mark) < log.mark_names.size(), "every mark indexes a mark name");
    require(sequence.features.size() == (feature ? n : 0), "one feature per event exactly with a feature column");
    require(std::all_of(sequence.features.begin(), sequence.features.end(), [](double x) { return std::isfinite(x); }),
            "every feature is finite");
    require(sequence.origin <= sequence.times.front(), "the origin is not after the first event");
  }
}

bool same_numbers(const std::vector<double>& a, const std::vector<double>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](double x, double y) {
    return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
  });
}

bool same_log(const aaren::EventLog& a, const aaren::EventLog& b) {
  const auto same_sequence = [](const aaren::EventSequence& x, const aaren::EventSequence& y) {
    return x.id == y.id && same_numbers(x.times, y.times) && x.marks == y.marks &&
           same_numbers(x.features, y.features) && std::bit_cast<std::uint64_t>(x.origin) == std::bit_cast<std::uint64_t>(y.origin) &&
           x.first_gap_known == y.first_gap_known && x.first_line == y.first_line;
  };
  const aaren::EventLogColumns& c = a.columns;
  const aaren::EventLogColumns& d = b.columns;
  return std::equal(a.sequences.begin(), a.sequences.end(), b.sequences.begin(), b.sequences.end(), same_sequence) &&
         a.mark_names == b.mark_names && a.feature_name == b.feature_name && a.time_unit == b.time_unit &&
         a.time_zero == b.time_zero && a.warnings == b.warnings && c.time == d.time && c.time_reason == d.time_reason &&
         c.time_is_date == d.time_is_date && c.sequence == d.sequence && c.sequence_reason == d.sequence_reason &&
         c.mark == d.mark && c.mark_reason == d.mark_reason && c.mark_use == d.mark_use && c.left_out == d.left_out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  aaren::EventLog in_memory, from_file;
  const auto memory_refusal =
      aaren::fuzz::refusal_of([&] { in_memory = aaren::parse_event_log(text, kSource); }, kSource);
  const std::string path = aaren::fuzz::file_holding(text, kSource);
  const auto file_refusal = aaren::fuzz::refusal_of([&] { from_file = aaren::read_event_log(path); }, kSource);
  require(memory_refusal == file_refusal, "a file and the same text in memory are refused alike");
  if (memory_refusal) return 0;
  check_log(in_memory);
  require(same_log(in_memory, from_file), "a file and the same text in memory give the same log");
  return 0;
}
