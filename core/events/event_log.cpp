#include "core/events/event_log.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

#include "core/data/csv_cells.hpp"
#include "core/data/csv_dialect.hpp"
#include "core/data/csv_file.hpp"
#include "core/data/csv_records.hpp"
#include "core/data/date_parse.hpp"
#include "core/data/record_width.hpp"
#include "core/events/event_columns.hpp"
#include "core/io/file_line_error.hpp"

// Reading an event log's events; which columns hold what is event_columns.cpp's.

namespace aaren {

namespace {

// Progress is reported, and cancellation checked, this often.
constexpr std::size_t kRecordsBetweenProgressReports = 1024;

bool names_a_non_finite_number(std::string_view cell) {
  std::string lower;
  for (char c : cell) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (!lower.empty() && (lower.front() == '+' || lower.front() == '-')) lower.erase(0, 1);
  return lower == "nan" || lower == "inf" || lower == "infinity";
}


// Integer labels are numbered in numeric order, equal values ("1", "01") merging.
void number_integer_labels(std::vector<std::string>& labels, std::vector<EventSequence>& sequences) {
  std::vector<long long> values;
  for (const std::string& label : labels) {
    const std::optional<double> value = parse_number_cell(label);
    if (!value || !is_integer(*value)) return;
    values.push_back((long long)(*value));
  }
  std::vector<long long> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<int> renumbered;
  for (long long value : values)
    renumbered.push_back(int(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin()));
  for (EventSequence& sequence : sequences)
    for (int& mark : sequence.marks) mark = renumbered[std::size_t(mark)];
  labels.clear();
  for (long long value : sorted) labels.push_back(std::to_string(value));
}

// total_bytes: the size of the text, for the progress reported through options; 0 when unknown.
EventLog read_events(CsvRecordReader& reader, const CsvDetection& d, const EventLogOptions& options,
                     const std::string& name, std::uint64_t total_bytes) {
  const EventColumnPlan plan = plan_event_columns(d, options, name);
  EventLog log;
  log.source = name;
  log.columns = plan.columns;
  log.warnings = d.warnings;
  log.warnings.insert(log.warnings.end(), plan.warnings.begin(), plan.warnings.end());
  const bool dates = plan.columns.time_is_date;
  const bool categorical = plan.mark >= 0 && plan.columns.mark_use == MarkUse::categorical;
  const bool feature = plan.mark >= 0 && plan.columns.mark_use == MarkUse::feature;
  log.time_unit = dates ? std::string(to_string(options.unit)) : unit_named_by(plan.columns.time);
  if (feature) log.feature_name = plan.columns.mark;
  const std::size_t width = d.column_names.size();

  require_clear_decimal_mark(d, name);
  log.decimal_mark = d.decimal_mark;
  CsvRecord record;
  if (d.has_header && !reader.next(record)) throw std::runtime_error(name + ": the file is empty");

  std::unordered_map<std::string, int> finished_sequences;  // id -> the line its rows ended on
  std::unordered_map<std::string, int> label_index;
  double first_seconds = 0;
  std::string previous_cell;
  int previous_line = 0;
  long duplicate_times = 0;
  int first_duplicate_line = 0;
  std::size_t records = 0;
  options.throw_if_cancelled(name);

  while (reader.next(record)) {
    if (++records % kRecordsBetweenProgressReports == 0)
      options.report(total_bytes > 0 ? double(reader.bytes_consumed()) / double(total_bytes) : 0.0, name);
    const std::vector<std::string>& fields = record.fields;
    const std::string line = name + ", line " + std::to_string(record.line);
    require_record_width(record, width, d.has_header, line);
    const auto at_column = [&](int j) { return line + ", column '" + d.column_names[j] + "': "; };
    const auto cell = [&](int j) { return std::string(trim_blanks(fields[std::size_t(j)])); };

    const std::string id = plan.sequence >= 0 ? cell(plan.sequence) : std::string();
    if (plan.sequence >= 0 && id.empty()) throw FileLineError(at_column(plan.sequence) + "the sequence id is missing", record.line);
    if (log.sequences.empty() || id != log.sequences.back().id) {
      if (const auto ended = finished_sequences.find(id); ended != finished_sequences.end())
        throw FileLineError(at_column(plan.sequence) + "sequence '" + id + "' appears again after its rows ended at line " +
                                 std::to_string(ended->second) + " and sequence '" + log.sequences.back().id +
                                 "' started at line " + std::to_string(log.sequences.back().first_line) +
                                 "; the rows of a sequence must be together (sort the file by sequence, then by time)", record.line);
      if (!log.sequences.empty()) finished_sequences.emplace(log.sequences.back().id, previous_line);
      EventSequence started;
      started.id = id;
      started.first_line = record.line;
      log.sequences.push_back(std::move(started));
    }
    EventSequence& sequence = log.sequences.back();

    const std::string time_cell = cell(plan.time);
    if (time_cell.empty() || time_cell == "NA") throw FileLineError(at_column(plan.time) + "the time is missing", record.line);
    std::optional<double> time;
    if (dates) {
      time = parse_date_time(time_cell);
      if (!time)
        throw FileLineError(at_column(plan.time) + "'" + time_cell +
                                 "' is not a date (forms such as 2016-07-01 13:00, 2016-07, 20160701 or 1991.5 are understood)", record.line);
      if (log.time_zero.empty()) {
        first_seconds = *time;
        log.time_zero = time_cell;
      }
      *time = (*time - first_seconds) / seconds_per(options.unit);
    } else {
      time = parse_number_cell(time_cell, d.decimal_mark);
      if (!time && names_a_non_finite_number(time_cell))
        throw FileLineError(at_column(plan.time) + "'" + time_cell + "' is not a finite number; every event needs a time", record.line);
      if (!time) throw FileLineError(at_column(plan.time) + explain_not_a_number(time_cell, d.decimal_mark), record.line);
    }
    if (!sequence.times.empty()) {
      if (*time < sequence.times.back())
        throw FileLineError(at_column(plan.time) + time_cell + " is earlier than the previous event's " +
                                 previous_cell + " (line " + std::to_string(previous_line) + ")" +
                                 (plan.sequence >= 0 ? " in sequence '" + id + "'" : std::string()), record.line);
      if (*time == sequence.times.back() && duplicate_times++ == 0) first_duplicate_line = record.line;
    }
    sequence.times.push_back(*time);

    if (categorical || feature) {
      const std::string mark_cell = cell(plan.mark);
      if (is_missing_cell(mark_cell))
        throw FileLineError(at_column(plan.mark) + "the mark is missing; every event needs one when '" +
                                 plan.columns.mark + "' is the mark (read the log without marks to ignore it)", record.line);
      if (categorical) {
        const auto [entry, added] = label_index.emplace(mark_cell, int(log.mark_names.size()));
        if (added) log.mark_names.push_back(mark_cell);
        sequence.marks.push_back(entry->second);
      } else {
        const std::optional<double> value = parse_number_cell(mark_cell, d.decimal_mark);
        if (!value) throw FileLineError(at_column(plan.mark) + explain_not_a_number(mark_cell, d.decimal_mark), record.line);
        sequence.features.push_back(*value);
      }
    }
    previous_cell = time_cell;
    previous_line = record.line;
  }

  options.report(1.0, name);
  if (log.sequences.empty()) throw std::runtime_error(name + ": the file has a header but no events");
  for (EventSequence& sequence : log.sequences) sequence.origin = sequence.times.front();
  if (categorical) number_integer_labels(log.mark_names, log.sequences);
  if (duplicate_times == 1)
    log.warnings.push_back("1 event shares its time with the previous event (line " +
                           std::to_string(first_duplicate_line) + "); its gap is 0");
  else if (duplicate_times > 1)
    log.warnings.push_back(std::to_string(duplicate_times) + " events share their time with the previous event (first at line " +
                           std::to_string(first_duplicate_line) + "); their gaps are 0");
  return log;
}

}  // namespace

std::vector<double> event_gaps(const EventSequence& sequence) {
  std::vector<double> gaps;
  const std::vector<double>& t = sequence.times;
  if (t.empty()) return gaps;
  if (sequence.first_gap_known) gaps.push_back(t.front() - sequence.origin);
  for (std::size_t i = 1; i < t.size(); ++i) gaps.push_back(t[i] - t[i - 1]);
  return gaps;
}

std::string_view to_string(MarkUse use) {
  switch (use) {
    case MarkUse::automatic: return "automatic";
    case MarkUse::categorical: return "categorical";
    case MarkUse::feature: return "feature";
    case MarkUse::none: return "none";
  }
  return "unknown";
}

std::string_view to_string(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::seconds: return "seconds";
    case TimeUnit::minutes: return "minutes";
    case TimeUnit::hours: return "hours";
    case TimeUnit::days: return "days";
    case TimeUnit::years: return "years";
  }
  return "unknown";
}

double seconds_per(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::seconds: return 1.0;
    case TimeUnit::minutes: return 60.0;
    case TimeUnit::hours: return 3600.0;
    case TimeUnit::days: return 86400.0;
    case TimeUnit::years: return 365.25 * 86400.0;
  }
  return 1.0;
}

long EventLog::events() const {
  long count = 0;
  for (const EventSequence& sequence : sequences) count += long(sequence.times.size());
  return count;
}

EventLog read_event_log(const std::string& path, const EventLogOptions& options) {
  const CsvDetection detection = detect_csv_file(path, dialect_overrides(options));
  CsvFile file(path, detection.delimiter);
  return read_events(file.records(), detection, options, file.name(), file.size());
}

EventLog parse_event_log(std::string_view text, const std::string& source, const EventLogOptions& options) {
  const CsvDetection detection = detect_csv_text(text, source, dialect_overrides(options));
  CsvRecordReader reader(text, detection.delimiter, source);
  return read_events(reader, detection, options, source, text.size());
}

}  // namespace aaren