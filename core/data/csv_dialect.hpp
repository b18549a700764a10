#pragma once
// Guessing how a CSV file is written from its first lines, so that users can open their own files
// without saying anything about them: the delimiter, whether there is a header, what each column
// holds, which column carries the dates, and how many cells are missing. Every guess can be
// overridden by the caller; the first rows come along for a preview table.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aaren {

enum class ColumnKind { number, date_time, text, empty };

std::string_view to_string(ColumnKind kind);

struct CsvDialectOverrides {
  std::optional<char> delimiter;
  std::optional<bool> has_header;
  std::optional<std::string> date_column;  // a column name; "" = the file has no date column
  std::optional<char> decimal_mark;        // '.' or ','; detected from the numbers when unset
};

struct CsvDetection {
  char delimiter = ',';
  bool has_header = true;
  std::vector<std::string> column_names;  // the header's, made unique; "column 1", ... without one
  std::vector<ColumnKind> column_kinds;   // from the sampled data rows
  std::vector<int> missing_cells;         // per column, in the sampled data rows
  int date_column = -1;                   // index into column_names; -1 = none
  std::vector<std::vector<std::string>> preview_rows;  // the sampled data rows, header excluded
  bool sampled_whole_file = false;        // the sample reached the end of the file
  std::vector<std::string> warnings;      // renamed columns and the like
  // '.' or ',': how the numbers write their fractions ("1.5" or "1,5", as Excel writes CSV in
  // German, French, Spanish or Italian settings). Detected from the numbers unless overridden.
  char decimal_mark = '.';
  // Not empty when the numbers leave the mark truly open (both "1.5" and "2,5", or only
  // thousands-like "1,250"): why, naming a line. The readers then refuse to guess and ask for
  // the override; decimal_mark holds '.' meanwhile.
  std::string decimal_mark_ambiguity;
  std::vector<int> preview_lines;         // (preview rows) the 1-based file line each row starts on
};

inline constexpr int default_detection_rows = 200;

// `source` names the input in messages. Throws std::runtime_error for an empty input and
// std::invalid_argument for an override that cannot apply (an unknown date column, a delimiter
// that is a quote or a line break).
CsvDetection detect_csv_text(std::string_view text, const std::string& source,
                             const CsvDialectOverrides& overrides = {}, int max_rows = default_detection_rows);
// Reads only the first lines of the file.
CsvDetection detect_csv_file(const std::string& path, const CsvDialectOverrides& overrides = {},
                             int max_rows = default_detection_rows);

// Throws AmbiguousDecimalMark "NAME: <why>; say which decimal mark the file uses" when the
// detection left the mark open: the readers refuse to guess.
void require_clear_decimal_mark(const CsvDetection& detection, const std::string& name);

// Throws std::runtime_error "NAME: the file has a header but no data rows" for such a file: one
// message wherever it is read (the readers, the Data page before it reads).
void require_data_rows(const CsvDetection& detection, const std::string& name);

// True for headers such as "date", "Time", "timestamp", "period", "YEAR", "date_approx", "Datum",
// "Fecha", and "ds" (Prophet's name for the date column).
bool header_names_a_date(std::string_view name);

// The index of the column called `name`: an exact match, else the only one that differs in case;
// -1 when there is none (or the case leaves it ambiguous).
int find_column(const std::vector<std::string>& names, std::string_view name);

// The name of a column in a file without a header: "column 3" for index 2.
std::string unnamed_column(int index);

// "a, b, c": for messages that list what a file has.
std::string join_names(const std::vector<std::string>& names);

}  // namespace aaren
