// The time-series CSV reader (core/data/time_series_csv.hpp) on arbitrary text with the default
// options, and when those refuse it, once more filling gaps by interpolation (which reads every text
// the default options accept the same way). Refusing the text is fine; a table that is accepted
// must hold what the header promises, and reading the text from a file (streamed, with its own
// sample for the detection) must give the same table or the same refusal as reading it in memory.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/time_series_csv.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

const std::string kSource = "series.csv";

void check_table(const aaren::TimeSeriesTable& table) {
  const auto rows = std::size_t(table.values.rows);
  const auto channels = std::size_t(table.values.cols);
  require(table.values.data.size() == rows * channels, "values hold (rows, channels) numbers");
  require(channels > 0, "a table has at least one channel");
  require(table.channel_names.size() == channels, "one name per channel");
  for (const double value : table.values.data) require(std::isfinite(value), "every value is finite");
  require(table.target >= -1 && table.target < int(channels), "the target is a channel or none");
  if (table.date_column_name.empty()) {
    require(table.dates.empty() && table.times.empty(), "no dates without a date column");
  } else {
    require(table.dates.size() == rows && table.times.size() == rows, "one date per row");
    for (const double time : table.times) require(std::isfinite(time), "every time is finite");
  }
}

bool same_numbers(const std::vector<double>& a, const std::vector<double>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](double x, double y) {
    return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
  });
}

bool same_table(const aaren::TimeSeriesTable& a, const aaren::TimeSeriesTable& b) {
  return a.channel_names == b.channel_names && a.date_column_name == b.date_column_name && a.dates == b.dates &&
         same_numbers(a.times, b.times) && a.values.rows == b.values.rows && a.values.cols == b.values.cols &&
         same_numbers(a.values.data, b.values.data) && a.target == b.target && a.warnings == b.warnings;
}

// Reads the text in memory and from a file; returns whether it was accepted.
bool read(std::string_view text, const aaren::CsvReadOptions& options) {
  aaren::TimeSeriesTable in_memory, from_file;
  const auto memory_refusal =
      aaren::fuzz::refusal_of([&] { in_memory = aaren::parse_time_series_csv(text, kSource, options); }, kSource);
  const std::string path = aaren::fuzz::file_holding(text, kSource);
  const auto file_refusal =
      aaren::fuzz::refusal_of([&] { from_file = aaren::read_time_series_csv(path, options); }, kSource);
  require(memory_refusal == file_refusal, "a file and the same text in memory are refused alike");
  if (memory_refusal) return false;
  check_table(in_memory);
  require(same_table(in_memory, from_file), "a file and the same text in memory give the same table");
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (read(text, {})) return 0;
  aaren::CsvReadOptions interpolate;
  interpolate.missing = aaren::CsvReadOptions::Missing::interpolate;
  read(text, interpolate);
  return 0;
}
