#pragma once
// Which columns of an event log hold the time, the sequence and the mark: chosen from the header's
// words and the first rows (CsvDetection), or as the options name them. event_log.cpp reads the
// events with the plan.
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_dialect.hpp"
#include "core/events/event_log.hpp"

namespace aaren {

struct EventColumnPlan {
  int time = -1, sequence = -1, mark = -1;  // column indices; -1: none
  EventLogColumns columns;
  std::vector<std::string> warnings;
};

// Throws std::runtime_error (no events, no usable time) or std::invalid_argument (a named column
// that is not there), naming `name`.
EventColumnPlan plan_event_columns(const CsvDetection& detection, const EventLogOptions& options, const std::string& name);

// The unit a numeric time column's header names, its last unit word winning ("t_start_min":
// minutes); empty when it names none.
std::string unit_named_by(std::string_view header);

bool is_integer(double value);  // and small enough to be held exactly as a long long

CsvDialectOverrides dialect_overrides(const EventLogOptions& options);

}  // namespace aaren
