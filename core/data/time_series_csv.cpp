#include "core/data/time_series_csv.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/csv_cells.hpp"
#include "core/data/csv_dialect.hpp"
#include "core/data/csv_file.hpp"
#include "core/data/csv_records.hpp"
#include "core/data/date_parse.hpp"
#include "core/data/record_width.hpp"
#include "core/io/file_line_error.hpp"

namespace aaren {

namespace {

constexpr std::size_t kRowsBetweenProgressReports = 1024;
constexpr double kRowsToSpare = 1.02;

CsvDialectOverrides dialect_overrides(const CsvReadOptions& options) {
  return {options.delimiter, options.has_header, options.date_column, options.decimal_mark};
}

// Which file column feeds each channel, and which one holds the dates.
struct ColumnPlan {
  std::vector<int> channel_columns;  // (channels)
  int date_column = -1;
};

ColumnPlan plan_columns(const CsvDetection& d, const CsvReadOptions& options, const std::string& name,
                        TimeSeriesTable& table) {
  ColumnPlan plan;
  plan.date_column = d.date_column;
  const int columns = int(d.column_names.size());
  if (options.columns.empty()) {
    for (int j = 0; j < columns; ++j) {
      if (j == d.date_column) continue;
      const std::string& column = d.column_names[j];
      switch (d.column_kinds[j]) {
        case ColumnKind::number: plan.channel_columns.push_back(j); break;
        case ColumnKind::date_time:
          table.warnings.push_back("column '" + column + "' holds dates and was left out");
          break;
        case ColumnKind::text:
          table.warnings.push_back("column '" + column + "' holds text and was left out");
          break;
        case ColumnKind::empty:
          table.warnings.push_back("column '" + column + "' is empty" +
                                   (d.sampled_whole_file ? std::string() : " in the first rows") +
                                   " and was left out; choose it by name to load it");
          break;
      }
    }
    if (plan.channel_columns.empty())
      throw std::runtime_error(name + ": no numeric columns (the file has: " + join_names(d.column_names) + ")");
  } else {
    for (const std::string& wanted : options.columns) {
      const int j = find_column(d.column_names, wanted);
      if (j < 0)
        throw std::invalid_argument(name + ": unknown column '" + wanted + "'; the file has: " +
                                    join_names(d.column_names));
      if (j == d.date_column)
        throw std::invalid_argument(name + ": column '" + d.column_names[j] +
                                    "' holds the dates; to load it as a channel, choose another date column or none");
      if (std::find(plan.channel_columns.begin(), plan.channel_columns.end(), j) != plan.channel_columns.end())
        throw std::invalid_argument(name + ": column '" + d.column_names[j] + "' is chosen twice");
      plan.channel_columns.push_back(j);
    }
  }
  for (int j : plan.channel_columns) table.channel_names.push_back(d.column_names[j]);
  if (plan.date_column >= 0) table.date_column_name = d.column_names[plan.date_column];

  if (!options.target.empty()) {
    table.target = find_column(table.channel_names, options.target);
    if (table.target < 0) {
      if (find_column(d.column_names, options.target) < 0)
        throw std::invalid_argument(name + ": unknown column '" + options.target + "'; the file has: " +
                                    join_names(d.column_names));
      throw std::invalid_argument(name + ": the target '" + options.target + "' is not among the chosen columns (" +
                                  join_names(table.channel_names) + ")");
    }
  }
  return plan;
}

// Linear between the nearest known neighbours, constant before the first and after the last.
int fill_gaps(std::vector<double>& values /*(rows, channels)*/, std::size_t rows, std::size_t channels,
              std::size_t channel, const std::string& name, const std::string& column) {
  const auto at = [&](std::size_t row) -> double& { return values[row * channels + channel]; };
  std::size_t previous = rows;  // the last known row so far; rows = none yet
  int filled = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    if (std::isnan(at(row))) continue;
    const std::size_t gap_begin = previous == rows ? 0 : previous + 1;
    for (std::size_t g = gap_begin; g < row; ++g) {
      at(g) = previous == rows ? at(row)
                               : at(previous) + (at(row) - at(previous)) * double(g - previous) / double(row - previous);
      ++filled;
    }
    previous = row;
  }
  if (previous == rows)
    throw std::runtime_error(name + ": column '" + column + "' has no values (every cell is empty)");
  for (std::size_t g = previous + 1; g < rows; ++g) {
    at(g) = at(previous);
    ++filled;
  }
  return filled;
}

std::string plural(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

TimeSeriesTable read_table(CsvRecordReader& reader, const CsvDetection& d, const CsvReadOptions& options,
                           const std::string& name, const std::string& source, std::uint64_t total_bytes) {
  TimeSeriesTable table;
  table.source = source;
  table.warnings = d.warnings;
  require_data_rows(d, name);
  require_clear_decimal_mark(d, name);
  table.decimal_mark = d.decimal_mark;
  const ColumnPlan plan = plan_columns(d, options, name, table);
  const std::size_t channels = plan.channel_columns.size();
  const std::size_t width = d.column_names.size();
  const bool interpolate = options.missing == CsvReadOptions::Missing::interpolate;

  CsvRecord record;
  if (d.has_header && !reader.next(record)) throw std::runtime_error(name + ": the file is empty");

  std::vector<double> values;  // (rows, channels)
  std::vector<std::size_t> missing(channels, 0);
  std::size_t rows = 0;
  int first_unordered_line = 0;
  std::size_t unordered_rows = 0;
  // Rows still to come, as the bytes read so far imply, with a little to spare; growing by
  // doubling instead would briefly hold up to three times the table.
  const auto reserve_for_the_rest = [&] {
    const double per_row = double(reader.bytes_consumed()) / double(rows);
    const double expected = double(rows) + double(total_bytes - std::min(total_bytes, reader.bytes_consumed())) / per_row;
    const auto capacity = std::size_t(expected * kRowsToSpare) + 1;
    values.reserve(capacity * channels);
    if (plan.date_column >= 0) {
      table.dates.reserve(capacity);
      table.times.reserve(capacity);
    }
  };
  options.throw_if_cancelled(name);

  while (reader.next(record)) {
    const std::vector<std::string>& fields = record.fields;
    const std::string line = name + ", line " + std::to_string(record.line);
    require_record_width(record, width, d.has_header, line);
    const auto at_column = [&](int j) { return line + ", column '" + d.column_names[j] + "'"; };

    if (plan.date_column >= 0) {
      const std::string_view cell = trim_blanks(fields[plan.date_column]);
      if (cell.empty()) throw FileLineError(at_column(plan.date_column) + ": the date is missing", record.line);
      const std::optional<double> time = parse_date_time(cell);
      if (!time)
        throw FileLineError(at_column(plan.date_column) + ": '" + std::string(cell) +
                                "' is not a date (forms such as 2016-07-01 13:00, 2016-07, 2016-Q3, 20160701, "
                                "2016 or 1991.5 are understood)",
                            record.line);
      if (!table.times.empty() && *time <= table.times.back()) {
        if (unordered_rows++ == 0) first_unordered_line = record.line;
      }
      table.dates.emplace_back(cell);
      table.times.push_back(*time);
    }

    for (std::size_t c = 0; c < channels; ++c) {
      const int j = plan.channel_columns[c];
      const std::string& cell = fields[j];
      if (is_missing_cell(cell)) {
        if (!interpolate)
          throw FileLineError(at_column(j) + ": the value is missing (use interpolation to fill gaps)", record.line);
        values.push_back(std::numeric_limits<double>::quiet_NaN());
        ++missing[c];
        continue;
      }
      const std::optional<double> value = parse_number_cell(cell, d.decimal_mark);
      if (!value) throw FileLineError(at_column(j) + ": " + explain_not_a_number(cell, d.decimal_mark), record.line);
      values.push_back(*value);
    }
    ++rows;
    if (rows % kRowsBetweenProgressReports == 0) {
      if (rows == kRowsBetweenProgressReports && total_bytes > 0) reserve_for_the_rest();
      options.report(total_bytes > 0 ? double(reader.bytes_consumed()) / double(total_bytes) : 0.0, name);
    }
  }

  for (std::size_t c = 0; c < channels; ++c) {
    if (missing[c] == 0) continue;
    fill_gaps(values, rows, channels, c, name, table.channel_names[c]);
    table.warnings.push_back("column '" + table.channel_names[c] + "': " + plural(missing[c], "missing cell") +
                             " filled by linear interpolation");
  }
  if (unordered_rows > 0)
    table.warnings.push_back("line " + std::to_string(first_unordered_line) +
                             ": the date does not come after the one before it (" + plural(unordered_rows, "row") +
                             " in all); the rows are used in file order");

  table.values.rows = int(rows);
  table.values.cols = int(channels);
  table.values.data = std::move(values);
  options.report(1.0, name);
  return table;
}

}  // namespace

TimeSeriesTable read_time_series_csv(const std::string& path, const CsvReadOptions& options) {
  const CsvDetection detection = detect_csv_file(path, dialect_overrides(options));
  CsvFile file(path, detection.delimiter);
  return read_table(file.records(), detection, options, file.name(), path, file.size());
}

TimeSeriesTable parse_time_series_csv(std::string_view text, const std::string& source, const CsvReadOptions& options) {
  const CsvDetection detection = detect_csv_text(text, source, dialect_overrides(options));
  CsvRecordReader reader(text, detection.delimiter, source);
  return read_table(reader, detection, options, source, source, text.size());
}

}  // namespace aaren
