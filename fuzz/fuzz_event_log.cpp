// The event-log reader (core/events/event_log.hpp) on arbitrary text, with the columns and the use
// of marks detected. Refusing the text is fine; an accepted log must keep the promises of EventLog:
// events in every sequence, times finite and never going back, one mark or feature per event.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/events/event_log.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string source = "events.csv";
  aaren::fuzz::accepted([&] { check_log(aaren::parse_event_log(text, source)); }, source);
  return 0;
}
