#include "ui/events/event_import.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace aaren::ui {

namespace {

// A column that repeats what the numeric times already say: an event counter or the gaps.
bool derivedFromTimes(ColumnReason reason) {
  switch (reason) {
    case ColumnReason::counts_the_events:
    case ColumnReason::holds_the_gaps: return true;
    default: return false;
  }
}

}  // namespace

bool looksLikeEventLog(const EventLogColumns& columns) {
  if (!columns.sequence.empty()) return true;
  const std::vector<ColumnReason>& leftOut = columns.left_out_why;
  // Beside a date column, a column that rises by one per row is as likely a time series' counter.
  if (!columns.time_is_date && std::any_of(leftOut.begin(), leftOut.end(), derivedFromTimes)) return true;
  // A lone column of small integers beside the dates is more often a count measured per period
  // than an event type: only a column named like a mark is taken as one here.
  if (columns.mark_use == MarkUse::feature ||
      (!columns.mark.empty() && columns.mark_why != ColumnReason::named_like_mark))
    return false;
  return std::all_of(leftOut.begin(), leftOut.end(),
                     [](ColumnReason reason) { return reason == ColumnReason::holds_dates; });
}

bool looksLikeEventLog(const QString& path) {
  try {
    return looksLikeEventLog(detect_event_columns(path.toStdString()));
  } catch (const std::exception&) {
    return false;  // then the time-series reader says what is wrong with the file
  }
}

}  // namespace aaren::ui
