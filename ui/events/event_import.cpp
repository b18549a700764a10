#include "ui/events/event_import.hpp"

#include <algorithm>
#include <exception>
#include <string>

namespace aaren::ui {

namespace {

// The reasons event_log.cpp gives for leaving a column out ("waiting_min: holds the gaps between events").
bool leftOutBecause(const std::string& entry, const std::string& reason) {
  return entry.size() > reason.size() && entry.compare(entry.size() - reason.size(), reason.size(), reason) == 0;
}

}  // namespace

bool looksLikeEventLog(const EventLogColumns& columns) {
  if (!columns.sequence.empty()) return true;
  const auto derivedFromTimes = [](const std::string& entry) {
    return leftOutBecause(entry, ": counts the events") || leftOutBecause(entry, ": holds the gaps between events");
  };
  // Beside a date column, a column that rises by one per row is as likely a time series' counter.
  if (!columns.time_is_date && std::any_of(columns.left_out.begin(), columns.left_out.end(), derivedFromTimes))
    return true;
  // A lone column of small integers beside the dates is more often a count measured per period
  // than an event type: only a column named like a mark is taken as one here.
  if (columns.mark_use == MarkUse::feature || (!columns.mark.empty() && columns.mark_reason != "named like a mark"))
    return false;
  return std::all_of(columns.left_out.begin(), columns.left_out.end(),
                     [](const std::string& entry) { return leftOutBecause(entry, ": holds dates"); });
}

bool looksLikeEventLog(const QString& path) {
  try {
    return looksLikeEventLog(detect_event_columns(path.toStdString()));
  } catch (const std::exception&) {
    return false;  // then the time-series reader says what is wrong with the file
  }
}

}  // namespace aaren::ui
