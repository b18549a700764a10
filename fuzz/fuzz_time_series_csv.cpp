// The time-series CSV reader (core/data/time_series_csv.hpp) on arbitrary text with the default
// options, and when those refuse it, once more filling gaps by interpolation (which reads every text
// the default options accept the same way). Refusing the text is fine; a table that is accepted
// must hold what the header promises.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/data/time_series_csv.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

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

bool read(std::string_view text, const aaren::CsvReadOptions& options) {
  const std::string source = "series.csv";
  return aaren::fuzz::accepted([&] { check_table(aaren::parse_time_series_csv(text, source, options)); }, source);
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
