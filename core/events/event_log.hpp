#pragma once
// Event logs for temporal point processes: the times at which things happened, optionally grouped
// into independent sequences (one per user, patient, simulation run) and optionally marked with a
// type (categorical) or a measured value (a numeric feature). Read from a user's CSV file with the
// same dialect detection, record reader and cell parsing as the time-series reader; the columns are
// detected unless the caller names them, and every error names the file, the line and the column:
//   "quakes.csv, line 12, column 'time': 3.5 is earlier than the previous event's 4.0 (line 11) in sequence 'a'".
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/cancel_token.hpp"

namespace aaren {

struct EventSequence {
  std::string id;                // the sequence column's value; "" when the file is one sequence
  std::vector<double> times;     // (n) non-decreasing, in EventLog::time_unit
  std::vector<int> marks;        // (n) 0..M-1 indexing EventLog::mark_names; empty when unmarked
  std::vector<double> features;  // (n) a numeric mark kept as a value; empty when there is none
  // The first event's gap is times[0] - origin when first_gap_known: the sequence continues an
  // earlier part (origin is the time of the event just before it) or a process observed from
  // origin on (a simulation started at 0). Otherwise nothing is known before the first event:
  // origin is times[0] and the gaps start with the second event.
  double origin = 0;
  bool first_gap_known = false;
  int first_line = 0;  // the line of the file holding the first event; 0 when unknown (simulated, or cut from a sequence)
};

// The gaps a model predicts, one per event whose previous event (or origin) is known:
// (n - 1), or (n) when first_gap_known.
std::vector<double> event_gaps(const EventSequence& sequence);

enum class MarkUse { automatic, categorical, feature, none };
// Date-time columns are converted to one of these; a year is 365.25 days.
enum class TimeUnit { seconds, minutes, hours, days, years };

std::string_view to_string(MarkUse use);
std::string_view to_string(TimeUnit unit);  // "seconds", ..., "years"
double seconds_per(TimeUnit unit);

// Why the detection took a column for a role or left it out, for code that decides by it (the
// Data page's choice of reader); the *_reason texts say the same to people.
enum class ColumnReason {
  none,                         // no column has the role
  chosen,                       // named in the options
  named_like_sequence,          // with values that repeat
  named_like_time_and_ordered,  // with values that never decrease
  first_ordered,                // the first column whose values never decrease
  named_like_time,              // though its values are not in order (the reader then says where)
  named_like_mark,
  only_possible_mark,           // the only other column that could be the mark
  // Left out:
  marks_not_read,
  holds_dates,
  is_empty,
  has_empty_cells,
  holds_a_single_value,
  has_too_many_values,  // too many different values to be event types
  holds_text,           // where a numeric feature was asked for
  counts_the_events,    // rises by one per event
  holds_the_gaps,       // repeats the gaps between the numeric times
  could_be_the_mark,    // one of several candidates, none of them named like a mark
};

// What was taken from which column, and why: for the import preview and for the user to correct.
struct EventLogColumns {
  std::string time, time_reason;
  ColumnReason time_why = ColumnReason::none;
  bool time_is_date = false;              // date-times measured from the first event; else numbers as written
  std::string sequence, sequence_reason;  // "" = the whole file is one sequence
  ColumnReason sequence_why = ColumnReason::none;
  std::string mark, mark_reason;          // "" = no mark
  ColumnReason mark_why = ColumnReason::none;
  MarkUse mark_use = MarkUse::none;       // categorical or feature when there is a mark column
  std::vector<std::string> left_out;      // "waiting_min: the gaps between events", one per unused column
  std::vector<ColumnReason> left_out_why; // the reason of each entry of left_out, in the same order
};

struct EventLog {
  std::string source;                      // the file name, for messages
  std::vector<EventSequence> sequences;    // in file order
  std::vector<std::string> mark_names;     // mark index -> label; empty without categorical marks
  std::string feature_name;                // the column kept as EventSequence::features; "" = none
  // "seconds", "minutes", "hours", "days" or "years"; for a numeric time column the unit its header
  // names ("t_start_min" -> "minutes", "date_decimal_year" -> "years"), else "".
  std::string time_unit;
  std::string time_zero;                   // the first event's date as written, when times count from it
  char decimal_mark = '.';                 // the one the numbers were read with
  EventLogColumns columns;
  std::vector<std::string> warnings;       // duplicate times, renamed or ambiguous columns

  long events() const;
};

// Columns are given by name (an exact match, else the only one that differs in case). Marks that
// are text are numbered by first appearance; when every label is an integer they are numbered in
// increasing numeric order (labels 3, 1, 2 -> marks 2, 0, 1). The inherited CancelToken stops a
// read with ReadCancelled and hears the fraction of the bytes read, every thousand events or so.
struct EventLogOptions : CancelToken {
  std::string time_column;                     // "" = detect
  std::optional<std::string> sequence_column;  // detected when unset; "" = the whole file is one sequence
  std::string mark_column;                     // "" = detect, unless mark_use is none
  MarkUse mark_use = MarkUse::automatic;       // automatic: non-integer numbers are features, the rest categories
  TimeUnit unit = TimeUnit::days;              // for a column of date-times
  std::optional<char> delimiter;               // detected when unset
  std::optional<bool> has_header;              // detected when unset
  std::optional<char> decimal_mark;            // '.' or ','; detected when unset
};

// From the first lines only, as read_event_log would choose them. Throws std::invalid_argument
// for options that do not fit the file and std::runtime_error when no time column can be found.
EventLogColumns detect_event_columns(const std::string& path, const EventLogOptions& options = {});

// Throws std::runtime_error for unreadable or malformed files (a time that goes back within a
// sequence, a missing or unreadable time or mark, a sequence whose rows are not together, no
// events) and std::invalid_argument for options that do not fit the file.
EventLog read_event_log(const std::string& path, const EventLogOptions& options = {});
// The same for text in memory; `source` names it in messages.
EventLog parse_event_log(std::string_view text, const std::string& source, const EventLogOptions& options = {});

}  // namespace aaren
