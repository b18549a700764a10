#include "core/events/event_columns.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "core/data/csv_cells.hpp"
#include "core/data/csv_file.hpp"
#include "core/data/date_parse.hpp"

namespace aaren {

namespace {

// More labels than this in the first rows reads as names or notes, not as event types.
constexpr int max_detected_mark_labels = 64;

std::vector<std::string> header_words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += char(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool has_word(std::string_view name, const std::set<std::string>& vocabulary) {
  const std::vector<std::string> words = header_words(name);
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return vocabulary.count(w) > 0; });
}

bool names_a_time(std::string_view name) {
  static const std::set<std::string> words = {"t",     "ts",      "start",     "tstart", "starttime",
                                              "onset", "arrival", "eventtime", "when"};
  return header_names_a_date(name) || has_word(name, words);
}

bool names_a_sequence(std::string_view name) {
  static const std::set<std::string> words = {"seq",     "sequence", "seqid",   "sequenceid", "id",
                                              "user",    "userid",   "series",  "subject",    "patient",
                                              "session", "entity",   "group"};
  return has_word(name, words);
}

bool names_a_mark(std::string_view name) {
  static const std::set<std::string> words = {"mark",  "marks",    "type",  "eventtype", "kind",
                                              "label", "category", "class", "code"};
  return has_word(name, words);
}



// The first data rows, which the column choices are made from.
class Sample {
 public:
  Sample(const CsvDetection& d, int sequence_column) : rows_(d.preview_rows), decimal_mark_(d.decimal_mark) {
    continues_.assign(rows_.size(), false);
    for (std::size_t r = 1; r < rows_.size(); ++r)
      continues_[r] = sequence_column < 0 || cell(r, sequence_column) == cell(r - 1, sequence_column);
  }

  std::size_t size() const { return rows_.size(); }
  std::optional<double> number(std::size_t row, int column) const { return parse_number_cell(cell(row, column), decimal_mark_); }
  std::string_view cell(std::size_t row, int column) const {
    const std::vector<std::string>& fields = rows_[row];
    return std::size_t(column) < fields.size() ? trim_blanks(fields[std::size_t(column)]) : std::string_view();
  }
  // Row r belongs to the same sequence as row r - 1.
  bool continues(std::size_t row) const { return continues_[row]; }

  std::vector<std::string_view> values(int column) const {
    std::vector<std::string_view> out;
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (!is_missing_cell(cell(r, column))) out.push_back(cell(r, column));
    return out;
  }
  std::size_t distinct(int column) const {
    const std::vector<std::string_view> all = values(column);
    return std::set<std::string_view>(all.begin(), all.end()).size();
  }

  // (rows) the column read as times, or nothing when a cell is not one.
  std::optional<std::vector<double>> times(int column, bool dates) const {
    std::vector<double> out;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      const std::optional<double> t = dates ? parse_date_time(cell(r, column)) : number(r, column);
      if (!t) return std::nullopt;
      out.push_back(*t);
    }
    return out;
  }
  std::optional<std::vector<double>> numbers(int column) const { return times(column, false); }

  // Never decreasing within a sequence, and not one value throughout.
  bool orders_events(const std::vector<double>& t) const {
    bool moves = t.size() < 2;
    for (std::size_t r = 1; r < t.size(); ++r) {
      if (!continues(r)) continue;
      if (t[r] < t[r - 1]) return false;
      if (t[r] > t[r - 1]) moves = true;
    }
    return moves;
  }

  // 1, 2, 3, ... within each sequence: an event number, not a property of the event.
  bool counts_rows(const std::vector<double>& v) const {
    int steps = 0;
    for (std::size_t r = 1; r < v.size(); ++r) {
      if (!continues(r)) continue;
      if (!is_integer(v[r]) || v[r] != v[r - 1] + 1) return false;
      ++steps;
    }
    return steps > 0;
  }

  // The time since the previous event of the same sequence, which the times already hold.
  bool repeats_gaps(const std::vector<double>& v, const std::vector<double>& t) const {
    int compared = 0;
    for (std::size_t r = 1; r < v.size(); ++r) {
      if (!continues(r)) continue;
      const double gap = t[r] - t[r - 1];
      if (std::abs(v[r] - gap) > 1e-6 * std::max({1.0, std::abs(gap), std::abs(v[r])})) return false;
      ++compared;
    }
    return compared > 0;
  }

 private:
  const std::vector<std::vector<std::string>>& rows_;
  char decimal_mark_;
  std::vector<bool> continues_;
};

int column_by_name(const CsvDetection& d, const std::string& wanted, const std::string& role, const std::string& name) {
  const int j = find_column(d.column_names, wanted);
  if (j < 0)
    throw std::invalid_argument(name + ": unknown " + role + " column '" + wanted + "'; the file has: " +
                                join_names(d.column_names));
  return j;
}

bool parses_as_dates(const CsvDetection& d, int j) {
  return d.column_kinds[j] == ColumnKind::date_time ||
         (d.column_kinds[j] != ColumnKind::number && header_names_a_date(d.column_names[j]));
}

int choose_sequence(const CsvDetection& d, const EventLogOptions& options, const std::string& name,
                    std::string& reason, ColumnReason& why) {
  if (options.sequence_column) {
    if (options.sequence_column->empty()) return -1;
    reason = "chosen";
    why = ColumnReason::chosen;
    return column_by_name(d, *options.sequence_column, "sequence", name);
  }
  const Sample sample(d, -1);
  for (int j = 0; j < int(d.column_names.size()); ++j) {
    const ColumnKind kind = d.column_kinds[j];
    if (kind != ColumnKind::number && kind != ColumnKind::text) continue;
    if (!names_a_sequence(d.column_names[j]) || names_a_time(d.column_names[j])) continue;
    if (!options.time_column.empty() && find_column(d.column_names, options.time_column) == j) continue;
    if (sample.distinct(j) < sample.values(j).size()) {
      reason = "named like a sequence id, with values that repeat";
      why = ColumnReason::named_like_sequence;
      return j;
    }
  }
  return -1;
}

int choose_time(const CsvDetection& d, const Sample& sample, int sequence, const EventLogOptions& options,
                const std::string& name, std::string& reason, ColumnReason& why) {
  if (!options.time_column.empty()) {
    const int j = column_by_name(d, options.time_column, "time", name);
    if (j == sequence)
      throw std::invalid_argument(name + ": column '" + d.column_names[j] + "' cannot be both the time and the sequence id");
    reason = "chosen";
    why = ColumnReason::chosen;
    return j;
  }
  const int columns = int(d.column_names.size());
  const auto usable = [&](int j) {
    return j != sequence && (d.column_kinds[j] == ColumnKind::number || d.column_kinds[j] == ColumnKind::date_time);
  };
  const auto orders_events = [&](int j) {
    const std::optional<std::vector<double>> t = sample.times(j, parses_as_dates(d, j));
    return t && sample.orders_events(*t);
  };
  for (int j = 0; j < columns; ++j) {
    if (usable(j) && names_a_time(d.column_names[j]) && orders_events(j)) {
      reason = "named like a time, with values that never decrease";
      why = ColumnReason::named_like_time_and_ordered;
      return j;
    }
  }
  for (int j = 0; j < columns; ++j) {
    if (usable(j) && orders_events(j)) {
      reason = "the first column whose values never decrease" + std::string(sequence >= 0 ? " within a sequence" : "");
      why = ColumnReason::first_ordered;
      return j;
    }
  }
  // The reader then names the row where the times go wrong, or the cell that is not a time.
  for (int j = 0; j < columns; ++j) {
    if (j != sequence && d.column_kinds[j] != ColumnKind::empty && names_a_time(d.column_names[j])) {
      reason = "named like a time";
      why = ColumnReason::named_like_time;
      return j;
    }
  }
  throw std::runtime_error(name + ": no time column: none is named like a time (time, timestamp, date, t, start, ...) "
                           "and none holds numbers or dates that never decrease; the file has: " +
                           join_names(d.column_names) + ". Choose the time column.");
}

// Why a column cannot be the mark (in words and as a code), or "" with the use it would have.
struct MarkFit {
  std::string why_not;
  ColumnReason code = ColumnReason::none;
  MarkUse use = MarkUse::none;
};

MarkFit fit_as_mark(const CsvDetection& d, const Sample& sample, int j, const std::optional<std::vector<double>>& times,
                    MarkUse wanted) {
  const ColumnKind kind = d.column_kinds[j];
  if (kind == ColumnKind::date_time) return {"holds dates", ColumnReason::holds_dates};
  if (kind == ColumnKind::empty)
    return {d.sampled_whole_file ? "is empty" : "is empty in the first rows", ColumnReason::is_empty};
  const bool named = names_a_mark(d.column_names[j]);
  if (d.missing_cells[j] > 0 && !named) return {"has empty cells", ColumnReason::has_empty_cells};
  const std::size_t values = sample.values(j).size();
  const std::size_t distinct = sample.distinct(j);
  if (distinct < 2) return {"holds a single value", ColumnReason::holds_a_single_value};
  // A mark's labels recur; a column named like one is believed even in a few rows that do not show it.
  const bool few_labels = distinct <= std::size_t(max_detected_mark_labels) && (named || distinct < values);
  const std::string too_many_labels = "has " + std::to_string(distinct) + " different values in " +
                                      std::to_string(values) + " rows, too many to be event types";
  if (kind == ColumnKind::text) {
    if (wanted == MarkUse::feature) return {"holds text, not numbers", ColumnReason::holds_text};
    if (!few_labels) return {too_many_labels, ColumnReason::has_too_many_values};
    return {"", ColumnReason::none, MarkUse::categorical};
  }
  const std::optional<std::vector<double>> numbers = sample.numbers(j);
  if (numbers && sample.counts_rows(*numbers)) return {"counts the events", ColumnReason::counts_the_events};
  if (numbers && times && sample.repeats_gaps(*numbers, *times)) return {"holds the gaps between events", ColumnReason::holds_the_gaps};
  if (wanted == MarkUse::feature) return {"", ColumnReason::none, MarkUse::feature};
  const std::vector<std::string_view> cells = sample.values(j);
  const bool integers = std::all_of(cells.begin(), cells.end(), [&](std::string_view cell) {
    const std::optional<double> value = parse_number_cell(cell, d.decimal_mark);
    return value && is_integer(*value);
  });
  if (wanted == MarkUse::categorical) {
    if (!few_labels) return {too_many_labels, ColumnReason::has_too_many_values};
    return {"", ColumnReason::none, MarkUse::categorical};
  }
  return {"", ColumnReason::none, integers && few_labels ? MarkUse::categorical : MarkUse::feature};
}

MarkUse use_of_chosen_mark(const CsvDetection& d, const Sample& sample, int j, MarkUse wanted) {
  if (wanted != MarkUse::automatic) return wanted;
  if (d.column_kinds[j] != ColumnKind::number) return MarkUse::categorical;
  for (std::size_t r = 0; r < sample.size(); ++r) {
    const std::optional<double> value = sample.number(r, j);
    if (value && !is_integer(*value)) return MarkUse::feature;
  }
  return MarkUse::categorical;
}

}  // namespace

bool is_integer(double value) { return std::floor(value) == value && std::abs(value) < 9.0e15; }

std::string unit_named_by(std::string_view name) {
  static const std::map<std::string, std::string> units = {
      {"year", "years"},     {"years", "years"},     {"yr", "years"},       {"yrs", "years"},
      {"day", "days"},       {"days", "days"},       {"hour", "hours"},     {"hours", "hours"},
      {"hr", "hours"},       {"hrs", "hours"},       {"h", "hours"},        {"min", "minutes"},
      {"mins", "minutes"},   {"minute", "minutes"},  {"minutes", "minutes"}, {"sec", "seconds"},
      {"secs", "seconds"},   {"second", "seconds"},  {"seconds", "seconds"}, {"s", "seconds"},
      {"ms", "milliseconds"}, {"milliseconds", "milliseconds"}};
  std::string unit;
  for (const std::string& word : header_words(name))
    if (const auto found = units.find(word); found != units.end()) unit = found->second;
  return unit;
}

EventColumnPlan plan_event_columns(const CsvDetection& d, const EventLogOptions& options, const std::string& name) {
  if (d.preview_rows.empty()) throw std::runtime_error(name + ": the file has a header but no events");
  EventColumnPlan plan;
  EventLogColumns& c = plan.columns;
  plan.sequence = choose_sequence(d, options, name, c.sequence_reason, c.sequence_why);
  const Sample sample(d, plan.sequence);
  plan.time = choose_time(d, sample, plan.sequence, options, name, c.time_reason, c.time_why);
  c.time_is_date = parses_as_dates(d, plan.time);
  const std::optional<std::vector<double>> numeric_times =
      c.time_is_date ? std::nullopt : sample.numbers(plan.time);

  const int columns = int(d.column_names.size());
  std::vector<std::string> why_not(std::size_t(columns), "marks are not read");
  std::vector<ColumnReason> why_not_code(std::size_t(columns), ColumnReason::marks_not_read);
  if (options.mark_use == MarkUse::none) {
    if (!options.mark_column.empty())
      throw std::invalid_argument(name + ": a mark column ('" + options.mark_column +
                                  "') is chosen, but marks are not to be read");
  } else if (!options.mark_column.empty()) {
    plan.mark = column_by_name(d, options.mark_column, "mark", name);
    if (plan.mark == plan.time || plan.mark == plan.sequence)
      throw std::invalid_argument(name + ": column '" + d.column_names[plan.mark] + "' is already the " +
                                  (plan.mark == plan.time ? "time" : "sequence id") + "; choose another mark column");
    c.mark_use = use_of_chosen_mark(d, sample, plan.mark, options.mark_use);
    c.mark_reason = "chosen";
    c.mark_why = ColumnReason::chosen;
  } else {
    std::vector<int> candidates;
    std::vector<MarkUse> uses(std::size_t(columns), MarkUse::none);
    for (int j = 0; j < columns; ++j) {
      if (j == plan.time || j == plan.sequence) continue;
      const MarkFit fit = fit_as_mark(d, sample, j, numeric_times, options.mark_use);
      why_not[j] = fit.why_not;
      why_not_code[j] = fit.code;
      uses[j] = fit.use;
      if (fit.why_not.empty()) candidates.push_back(j);
    }
    const auto named = std::find_if(candidates.begin(), candidates.end(),
                                    [&](int j) { return names_a_mark(d.column_names[j]); });
    if (named != candidates.end()) {
      plan.mark = *named;
      c.mark_reason = "named like a mark";
      c.mark_why = ColumnReason::named_like_mark;
    } else if (candidates.size() == 1) {
      plan.mark = candidates.front();
      c.mark_reason = "the only other column that could be one";
      c.mark_why = ColumnReason::only_possible_mark;
    } else if (candidates.size() > 1) {
      std::vector<std::string> names;
      for (int j : candidates) {
        names.push_back(d.column_names[j]);
        why_not[j] = "could be the mark; choose it to use it";
        why_not_code[j] = ColumnReason::could_be_the_mark;
      }
      plan.warnings.push_back("columns " + join_names(names) + " could each be the mark; none is used until one is chosen");
    }
    if (plan.mark >= 0) c.mark_use = uses[plan.mark];
  }

  c.time = d.column_names[plan.time];
  if (plan.sequence >= 0) c.sequence = d.column_names[plan.sequence];
  if (plan.mark >= 0) c.mark = d.column_names[plan.mark];
  for (int j = 0; j < columns; ++j) {
    if (j == plan.time || j == plan.sequence || j == plan.mark) continue;
    c.left_out.push_back(d.column_names[j] + ": " + why_not[j]);
    c.left_out_why.push_back(why_not_code[j]);
  }
  return plan;
}

CsvDialectOverrides dialect_overrides(const EventLogOptions& options) {
  return {options.delimiter, options.has_header, std::string(), options.decimal_mark};
}

EventLogColumns detect_event_columns(const std::string& path, const EventLogOptions& options) {
  const CsvDetection detection = detect_csv_file(path, dialect_overrides(options));
  return plan_event_columns(detection, options, std::filesystem::path(path).filename().string()).columns;
}

}  // namespace aaren
