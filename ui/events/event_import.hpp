#pragma once
// Whether a CSV file is more likely an event log (times at which things happened) than a time
// series (values measured at regular times), for the Data page's automatic choice of reader.
#include <QString>

#include "core/events/event_log.hpp"

namespace aaren::ui {

// How the Data page reads a file: as detected, or as the user says.
enum class ImportKind { automatic, timeSeries, eventLog };

// From the columns the event-log detector chose. A log is recognised by what a time series lacks:
// a sequence id whose values repeat, a column that counts the events or repeats the gaps of numeric
// times, or no column besides the time (and a column named like a mark) but dates. A time series'
// measured values would be taken for a mark, which speaks for a time series.
bool looksLikeEventLog(const EventLogColumns& columns);

// False as well for a file the detector cannot read as an event log at all.
bool looksLikeEventLog(const QString& path);

}  // namespace aaren::ui
