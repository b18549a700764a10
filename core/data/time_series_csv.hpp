#pragma once
// Loading a forecasting data set from a user's CSV file: a date column kept for the charts, the
// numeric columns as channels, one of them optionally the target. The file is streamed record by
// record, so memory holds what was parsed (the numbers, the dates and their text) and never the
// file's text; the buffers are sized from the rows the first part of the file implies, so they do
// not double as they grow. The dialect (delimiter, header, date column) is detected from its first
// lines unless the caller says otherwise. Errors name the file, the line and the column, e.g.
//   "co2.csv, line 8, column 'co2': the value is missing (use interpolation to fill gaps)".
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/decimal_mark.hpp"
#include "core/util/cancel_token.hpp"
#include "core/util/matrix.hpp"

namespace aaren {

struct TimeSeriesTable {
  std::string source;                      // the path or name it was read from
  std::vector<std::string> channel_names;  // (channels)
  std::string date_column_name;            // "" when the file has no date column
  std::vector<std::string> dates;          // (rows) the date cells as written; empty without a date column
  std::vector<double> times;               // (rows) seconds since 1970-01-01 UTC; empty without a date column
  Matrix<double> values;                   // (rows, channels) original units, gaps filled when asked
  int target = -1;                         // index into channel_names; -1 = none chosen
  char decimal_mark = '.';                 // the one the numbers were read with
  std::vector<std::string> warnings;       // filled gaps, columns left out, dates out of order
};

// The inherited CancelToken stops the read with ReadCancelled and hears the fraction of the bytes
// read, every thousand rows or so.
struct CsvReadOptions : CancelToken {
  std::optional<char> delimiter;           // detected when unset
  std::optional<bool> has_header;          // detected when unset
  std::optional<std::string> date_column;  // detected when unset; "" = none
  std::optional<char> decimal_mark;        // '.' or ','; detected when unset
  std::vector<std::string> columns;        // empty = every numeric column except the date
  std::string target;                      // "" = none
  enum class Missing { error, interpolate } missing = Missing::error;
};

// Messages name the file by its file name. Throws std::runtime_error for unreadable or malformed
// files (a FileLineError where a line is at fault; "NAME is not a text file (...)" for an image, a
// program or an archive) and std::invalid_argument for options that do not fit the file.
TimeSeriesTable read_time_series_csv(const std::string& path, const CsvReadOptions& options = {});
// The same for text in memory; `source` names it in messages and in the table.
TimeSeriesTable parse_time_series_csv(std::string_view text, const std::string& source,
                                      const CsvReadOptions& options = {});

}  // namespace aaren
