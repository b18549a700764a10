#include "core/data/csv_dialect.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "core/data/csv_cells.hpp"
#include "core/data/csv_records.hpp"
#include "core/data/date_parse.hpp"
#include "core/data/decimal_mark.hpp"
#include "core/io/text_content.hpp"

namespace aaren {

namespace {

constexpr std::array<char, 3> candidate_delimiters = {',', ';', '\t'};
constexpr std::size_t max_sample_bytes = std::size_t(8) << 20;

std::string describe_delimiter(char delimiter) {
  if (delimiter == '\t') return "a tab";
  return std::string{'\'', delimiter, '\''};
}

std::vector<CsvRecord> parse_sample(std::string_view sample, char delimiter, const std::string& source, int max_records) {
  CsvRecordReader reader(sample, delimiter, source, UnclosedQuoteAtEnd::drop_record);
  std::vector<CsvRecord> records;
  CsvRecord record;
  while (int(records.size()) < max_records && reader.next(record)) records.push_back(record);
  return records;
}

// The delimiter that splits every sampled record into the same number of fields, the most fields
// winning and ties going to the earlier candidate. A delimiter that also occurs inside fields
// (a semicolon file with decimal commas) splits the header differently from the data rows, which
// is what rules it out, and so do other candidates left inside every record's fields. Without a
// consistent one: the first that splits the first record at all.
char choose_delimiter(std::string_view sample, const std::string& source, int max_records) {
  char best = 0;
  std::size_t best_width = 1;
  char fallback = 0;
  for (char delimiter : candidate_delimiters) {
    const std::vector<CsvRecord> records = parse_sample(sample, delimiter, source, max_records);
    if (records.empty()) continue;
    const std::size_t width = records.front().fields.size();
    if (width < 2) continue;
    if (!fallback) fallback = delimiter;
    const bool consistent = std::all_of(records.begin(), records.end(),
                                        [&](const CsvRecord& r) { return r.fields.size() == width; });
    // "1,5;2,25" splits at its commas as consistently as at its semicolons; the semicolons left
    // inside every record's fields ("5;2", no number) give it away, while the commas left by the
    // semicolons are decimal commas.
    const auto holds_another_delimiter = [&](const CsvRecord& r) {
      return std::any_of(r.fields.begin(), r.fields.end(), [&](const std::string& field) {
        return !is_number_with_either_mark(field) &&
               std::any_of(candidate_delimiters.begin(), candidate_delimiters.end(),
                           [&](char other) { return other != delimiter && field.find(other) != std::string::npos; });
      });
    };
    const bool split_inside = std::all_of(records.begin(), records.end(), holds_another_delimiter);
    if (consistent && !split_inside && width > best_width) {
      best = delimiter;
      best_width = width;
    }
  }
  if (best) return best;
  return fallback ? fallback : ',';
}

// A number with either decimal mark counts: the mark is chosen afterwards, from the number columns.
ColumnKind classify(const std::vector<CsvRecord>& records, std::size_t first_row, std::size_t column, int& missing) {
  int values = 0, numbers = 0, dates = 0;
  missing = 0;
  for (std::size_t r = first_row; r < records.size(); ++r) {
    const std::vector<std::string>& fields = records[r].fields;
    if (column >= fields.size()) continue;
    if (is_missing_cell(fields[column])) {
      ++missing;
      continue;
    }
    ++values;
    if (is_number_with_either_mark(fields[column])) ++numbers;
    else if (parse_non_numeric_date_time(fields[column])) ++dates;
  }
  if (values == 0) return ColumnKind::empty;
  if (dates == values) return ColumnKind::date_time;
  // A column of numbers with a stray "n/a" is still a column of numbers: the reader then names
  // the bad cell instead of the column silently disappearing.
  if (2 * numbers >= values) return ColumnKind::number;
  return ColumnKind::text;
}

bool is_name_cell(const std::string& cell) { return !is_missing_cell(cell) && !is_number_with_either_mark(cell); }

// A header is a row of names over data: some column holds numbers (or dates) below a first cell
// that is not one. With nothing but text below, a first row of non-empty names is taken as one.
bool guess_header(const std::vector<CsvRecord>& records) {
  const std::vector<std::string>& first = records.front().fields;
  if (records.size() == 1) return std::any_of(first.begin(), first.end(), is_name_cell);
  bool any_typed_column = false;
  for (std::size_t j = 0; j < first.size(); ++j) {
    int missing = 0;
    const ColumnKind kind = classify(records, 1, j, missing);
    if (kind == ColumnKind::number || kind == ColumnKind::date_time) any_typed_column = true;
    if (!is_name_cell(first[j])) continue;
    if (kind == ColumnKind::number) return true;
    if (kind == ColumnKind::date_time && !parse_non_numeric_date_time(first[j])) return true;
  }
  return !any_typed_column && std::all_of(first.begin(), first.end(), is_name_cell);
}

struct DateCount {
  int values = 0;
  int dates = 0;
};

DateCount count_dates(const std::vector<CsvRecord>& records, std::size_t first_row, std::size_t column) {
  DateCount count;
  for (std::size_t r = first_row; r < records.size(); ++r) {
    const std::vector<std::string>& fields = records[r].fields;
    if (column >= fields.size() || is_missing_cell(fields[column])) continue;
    ++count.values;
    if (parse_date_time(fields[column])) ++count.dates;
  }
  return count;
}

// Date strings under a date-like header first, then any column of date strings, then numbers
// that a date-like header declares to be dates (20160701, 1991.5), and last a date-like header
// over mostly dates: the reader then names the cell that is not one.
int guess_date_column(const CsvDetection& d, const std::vector<CsvRecord>& records, std::size_t first_row) {
  const int columns = int(d.column_names.size());
  const auto named = [&](int j) { return d.has_header && header_names_a_date(d.column_names[j]); };
  for (int j = 0; j < columns; ++j)
    if (d.column_kinds[j] == ColumnKind::date_time && named(j)) return j;
  for (int j = 0; j < columns; ++j)
    if (d.column_kinds[j] == ColumnKind::date_time) return j;
  for (int j = 0; j < columns; ++j) {
    if (d.column_kinds[j] != ColumnKind::number || !named(j)) continue;
    const DateCount count = count_dates(records, first_row, std::size_t(j));
    if (count.values > 0 && count.dates == count.values) return j;
  }
  for (int j = 0; j < columns; ++j) {
    if (d.column_kinds[j] != ColumnKind::text || !named(j)) continue;
    const DateCount count = count_dates(records, first_row, std::size_t(j));
    if (2 * count.dates > count.values) return j;
  }
  return -1;
}

std::vector<std::string> unique_names(const std::vector<std::string>& header, std::vector<std::string>& warnings) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  // Per repeated name, the suffix to try first: every one below it is taken, so a header that
  // repeats one name n times costs n tries, not n^2 / 2.
  std::map<std::string, int> next_suffix;
  for (std::size_t j = 0; j < header.size(); ++j) {
    std::string name = header[j];
    if (name.empty()) name = unnamed_column(int(j));
    if (taken.count(name)) {
      int& suffix = next_suffix.try_emplace(name, 1).first->second;
      while (taken.count(name + "." + std::to_string(suffix))) ++suffix;
      const std::string renamed = name + "." + std::to_string(suffix);
      warnings.push_back("the header names '" + name + "' more than once; " + unnamed_column(int(j)) +
                         " is called '" + renamed + "'");
      name = renamed;
    }
    taken.insert(name);
    names.push_back(std::move(name));
  }
  return names;
}

CsvDetection detect_from_sample(std::string_view sample, bool sample_is_whole_input, const std::string& source,
                                const CsvDialectOverrides& overrides, int max_rows) {
  if (max_rows < 1) throw std::invalid_argument("the detection needs at least one row to look at");
  CsvDetection d;
  if (overrides.delimiter) {
    const char c = *overrides.delimiter;
    if (c == '"' || c == '\n' || c == '\r' || c == '\0')
      throw std::invalid_argument(describe_delimiter(c) + " cannot be a delimiter; use ',', ';' or a tab");
    d.delimiter = c;
  } else {
    d.delimiter = choose_delimiter(sample, source, max_rows + 1);
  }
  const std::vector<CsvRecord> records = parse_sample(sample, d.delimiter, source, max_rows + 1);
  if (records.empty()) throw std::runtime_error(source + ": the file is empty");

  d.has_header = overrides.has_header ? *overrides.has_header : guess_header(records);
  const std::size_t first_row = d.has_header ? 1 : 0;
  const std::vector<std::string>& first = records.front().fields;
  if (d.has_header) {
    // Excel's "CSV" in Western European settings is Windows-1252: its accented names are shown
    // and matched as UTF-8.
    std::vector<std::string> header = first;
    bool recoded = false;
    for (std::string& name : header) {
      if (is_valid_utf8(name)) continue;
      name = utf8_from_windows_1252(name);
      recoded = true;
    }
    d.column_names = unique_names(header, d.warnings);
    if (recoded) d.warnings.push_back("the header is not UTF-8; its names were read as Windows-1252 (Latin-1)");
  } else {
    for (std::size_t j = 0; j < first.size(); ++j) d.column_names.push_back(unnamed_column(int(j)));
  }
  for (std::size_t j = 0; j < d.column_names.size(); ++j) {
    int missing = 0;
    d.column_kinds.push_back(classify(records, first_row, j, missing));
    d.missing_cells.push_back(missing);
  }
  if (overrides.decimal_mark) {
    check_decimal_mark(*overrides.decimal_mark);
    d.decimal_mark = *overrides.decimal_mark;
  } else {
    std::vector<int> number_columns;
    for (std::size_t j = 0; j < d.column_kinds.size(); ++j)
      if (d.column_kinds[j] == ColumnKind::number) number_columns.push_back(int(j));
    DecimalMarkGuess guess = guess_decimal_mark(records, first_row, number_columns, d.delimiter);
    d.decimal_mark = guess.mark;
    d.decimal_mark_ambiguity = std::move(guess.ambiguity);
  }
  for (std::size_t r = first_row; r < records.size() && int(d.preview_rows.size()) < max_rows; ++r) {
    d.preview_rows.push_back(records[r].fields);
    d.preview_lines.push_back(records[r].line);
  }
  d.sampled_whole_file = sample_is_whole_input && records.size() - first_row == d.preview_rows.size();

  if (!overrides.date_column) {
    d.date_column = guess_date_column(d, records, first_row);
  } else if (!overrides.date_column->empty()) {
    d.date_column = find_column(d.column_names, *overrides.date_column);
    if (d.date_column < 0)
      throw std::invalid_argument(source + ": unknown date column '" + *overrides.date_column +
                                  "'; the file has: " + join_names(d.column_names));
  }
  return d;
}

// The text up to the end of its (max_lines)-th non-blank line.
std::string_view leading_lines(std::string_view text, int max_lines, bool& whole) {
  std::size_t at = 0;
  int lines = 0;
  while (at < text.size() && lines < max_lines && at < max_sample_bytes) {
    std::size_t end = text.find('\n', at);
    end = end == std::string_view::npos ? text.size() : end + 1;
    if (text.substr(at, end - at).find_first_not_of(" \t\r\n") != std::string_view::npos) ++lines;
    at = end;
  }
  whole = at == text.size();
  return text.substr(0, at);
}

}  // namespace

std::string_view to_string(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::number: return "number";
    case ColumnKind::date_time: return "date-time";
    case ColumnKind::text: return "text";
    case ColumnKind::empty: return "empty";
  }
  return "unknown";
}

void require_clear_decimal_mark(const CsvDetection& detection, const std::string& name) {
  if (!detection.decimal_mark_ambiguity.empty())
    throw AmbiguousDecimalMark(name + ": " + detection.decimal_mark_ambiguity + "; say which decimal mark the file uses");
}

void require_data_rows(const CsvDetection& detection, const std::string& name) {
  if (detection.has_header && detection.preview_rows.empty())
    throw std::runtime_error(name + ": the file has a header but no data rows");
}

bool header_names_a_date(std::string_view name) {
  // With the words of European spreadsheets' exports: Datum (German, Dutch, Swedish), fecha, Zeit.
  static const std::set<std::string> date_words = {"date",  "time",  "timestamp", "datetime", "period",
                                                   "year",  "ds",    "datum",     "fecha",    "zeit"};
  std::string word;
  const auto word_is_a_date = [&] { return date_words.count(word) > 0; };
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += char(std::tolower(static_cast<unsigned char>(c)));
    } else {
      if (word_is_a_date()) return true;
      word.clear();
    }
  }
  return word_is_a_date();
}

int find_column(const std::vector<std::string>& names, std::string_view name) {
  const auto exact = std::find(names.begin(), names.end(), name);
  if (exact != names.end()) return int(exact - names.begin());
  const auto same_letters = [&](const std::string& candidate) {
    return std::equal(candidate.begin(), candidate.end(), name.begin(), name.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
  };
  int found = -1;
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (!same_letters(names[j])) continue;
    if (found >= 0) return -1;  // "ot" could mean "OT" or "Ot": make the user say which
    found = int(j);
  }
  return found;
}

std::string unnamed_column(int index) { return "column " + std::to_string(index + 1); }

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

CsvDetection detect_csv_text(std::string_view text, const std::string& source, const CsvDialectOverrides& overrides,
                             int max_rows) {
  require_text(text, source);
  bool whole = false;
  const std::string_view sample = leading_lines(text, max_rows + 1, whole);
  return detect_from_sample(sample, whole, source, overrides, max_rows);
}

CsvDetection detect_csv_file(const std::string& path, const CsvDialectOverrides& overrides, int max_rows) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + ")");
  const std::string name = std::filesystem::path(path).filename().string();
  std::string sample(kTextCheckBytes, '\0');
  in.read(sample.data(), std::streamsize(sample.size()));
  sample.resize(std::size_t(in.gcount()));
  require_text(sample, name);
  in.clear();
  in.seekg(0);
  sample.clear();
  std::string line;
  int lines = 0;
  while (lines < max_rows + 1 && sample.size() < max_sample_bytes && std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++lines;
    sample += line;
    sample += '\n';
  }
  if (in.bad()) throw std::runtime_error(path + ": read error (" + std::strerror(errno) + ")");
  const bool whole = in.peek() == std::char_traits<char>::eof();
  return detect_from_sample(sample, whole, name, overrides, max_rows);
}

}  // namespace aaren
