#include "core/data/split.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/io/matrix_csv.hpp"

namespace aaren {

namespace {

constexpr double seconds_per_day = 86400.0;
constexpr int ett_train_months = 12, ett_validation_months = 4, ett_test_months = 4, ett_days_per_month = 30;

const char* const split_help = "use 'ett' or three fractions such as 0.7/0.1/0.2 (or percentages 70/10/20)";

std::string describe_fractions(const SplitFractions& f) {
  return format_number(f.train) + "/" + format_number(f.validation) + "/" + format_number(f.test);
}

std::string describe_spacing(double seconds) {
  const auto amount = [](double value, const char* unit) {
    const std::string number = format_number(std::round(value * 100) / 100);
    return number + " " + unit + (number == "1" ? "" : "s");
  };
  if (seconds >= seconds_per_day) return amount(seconds / seconds_per_day, "day");
  if (seconds >= 3600) return amount(seconds / 3600, "hour");
  if (seconds >= 60) return amount(seconds / 60, "minute");
  return amount(seconds, "second");
}

}  // namespace

void validate_fractions(const SplitFractions& f) {
  const bool positive = f.train > 0 && f.validation > 0 && f.test > 0;
  const double sum = f.train + f.validation + f.test;
  if (!positive || !std::isfinite(sum) || std::abs(sum - 1.0) > 1e-9)
    throw std::invalid_argument("the split fractions must be positive and add up to 1, not " + describe_fractions(f));
}

SplitSpec parse_split_spec(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  SplitSpec spec;
  std::string lower;
  for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "ett") {
    spec.method = SplitSpec::Method::ett_months;
    return spec;
  }
  std::vector<double> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find_first_of("/,", start), text.size());
    std::string_view piece = text.substr(start, end - start);
    while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
    while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
    double value = 0;
    const auto [stop, error] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
    if (piece.empty() || error != std::errc() || stop != piece.data() + piece.size())
      throw std::invalid_argument("split '" + std::string(text) + "': '" + std::string(piece) +
                                  "' is not a number; " + split_help);
    parts.push_back(value);
    start = end + 1;
  }
  if (parts.size() != 3)
    throw std::invalid_argument("split '" + std::string(text) + "' has " + std::to_string(parts.size()) +
                                " parts; " + split_help);
  const double sum = parts[0] + parts[1] + parts[2];
  const double divisor = std::abs(sum - 100.0) < 1e-6 ? 100.0 : 1.0;  // percentages
  spec.fractions = {parts[0] / divisor, parts[1] / divisor, parts[2] / divisor};
  validate_fractions(spec.fractions);
  return spec;
}

std::string to_string(const SplitSpec& spec) {
  return spec.method == SplitSpec::Method::ett_months ? "ett" : describe_fractions(spec.fractions);
}

ChronologicalSplit split_by_fractions(int rows, const SplitFractions& fractions) {
  validate_fractions(fractions);
  const int train = int(std::floor(double(rows) * fractions.train));
  const int test = int(std::floor(double(rows) * fractions.test));
  const int validation = rows - train - test;
  if (train < 1 || validation < 1 || test < 1)
    throw std::invalid_argument(std::to_string(rows) + " rows are too few to split " + describe_fractions(fractions) +
                                " into three non-empty parts");
  return {{0, train}, {train, train + validation}, {train + validation, rows}};
}

int infer_rows_per_day(std::span<const double> times) {
  if (times.size() < 2) throw std::invalid_argument("at least two dates are needed to tell how often rows are taken");
  std::vector<double> steps(times.size() - 1);
  for (std::size_t i = 0; i + 1 < times.size(); ++i) steps[i] = times[i + 1] - times[i];
  const auto middle = steps.begin() + std::ptrdiff_t(steps.size() / 2);
  std::nth_element(steps.begin(), middle, steps.end());
  const double spacing = *middle;
  if (!(spacing > 0)) throw std::invalid_argument("the dates do not increase from row to row, so the rows per day are unknown");
  const double per_day = seconds_per_day / spacing;
  const double whole = std::round(per_day);
  if (whole < 1 || std::abs(per_day - whole) > 0.01 * per_day)
    throw std::invalid_argument("the rows are " + describe_spacing(spacing) +
                                " apart, which does not divide a day into whole rows");
  return int(whole);
}

ChronologicalSplit split_ett_months(std::span<const double> times) {
  if (times.empty())
    throw std::invalid_argument("the ETT split counts months from the dates, but the data has no date column; "
                                "split by fractions such as 0.7/0.1/0.2 instead");
  int rows_per_day = 0;
  try {
    rows_per_day = infer_rows_per_day(times);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("the ETT split needs daily or finer dates: ") + e.what() +
                                "; split by fractions such as 0.7/0.1/0.2 instead");
  }
  const int month = ett_days_per_month * rows_per_day;
  const int train = ett_train_months * month;
  const int validation = ett_validation_months * month;
  const int needed = train + validation + ett_test_months * month;
  const int rows = int(times.size());
  if (rows < needed)
    throw std::invalid_argument("the ETT split needs 20 months of 30 days, " + std::to_string(needed) + " rows at " +
                                std::to_string(rows_per_day) + " a day, but the data has " + std::to_string(rows) +
                                "; split by fractions such as 0.7/0.1/0.2 instead");
  return {{0, train}, {train, train + validation}, {train + validation, needed}};
}

ChronologicalSplit split_rows(const SplitSpec& spec, int rows, std::span<const double> times) {
  if (!times.empty() && int(times.size()) != rows)
    throw std::invalid_argument("the split got " + std::to_string(times.size()) + " dates for " +
                                std::to_string(rows) + " rows");
  if (spec.method == SplitSpec::Method::ett_months) return split_ett_months(times);
  return split_by_fractions(rows, spec.fractions);
}

}  // namespace aaren
