#pragma once
// Chronological train / validation / test split of a time series' rows: by fractions (70/10/20 by
// default, rounded as the Informer code base does: train and test rounded down, validation takes
// the rest) or by the ETT convention of 12/4/4 months of 30 days, counted from the first row, with
// the rows per day inferred from the dates (hourly: 8640 / 2880 / 2880 rows; the rest unused).
#include <span>
#include <string>
#include <string_view>

namespace aaren {

struct RowRange {
  int begin = 0;
  int end = 0;  // one past the last row
  int size() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

struct SplitFractions {
  double train = 0.7;
  double validation = 0.1;
  double test = 0.2;
};

struct SplitSpec {
  enum class Method { fractions, ett_months } method = Method::fractions;
  SplitFractions fractions;  // used by Method::fractions
};

// The rows each part owns (its first target row to one past its last).
struct ChronologicalSplit {
  RowRange train, validation, test;
};

// "ett", or three fractions or percentages separated by '/' or ',' ("0.7/0.1/0.2", "70/10/20").
// Throws std::invalid_argument saying what is accepted.
SplitSpec parse_split_spec(std::string_view text);
std::string to_string(const SplitSpec& spec);  // "0.7/0.1/0.2" or "ett"

// Throws std::invalid_argument unless all three are positive and sum to 1.
void validate_fractions(const SplitFractions& fractions);

// Every part non-empty; throws std::invalid_argument when `rows` is too small for that.
ChronologicalSplit split_by_fractions(int rows, const SplitFractions& fractions);

// Rows per day from the median spacing of `times` (seconds). Throws std::invalid_argument when
// there are too few times, they do not increase, or the spacing does not divide a day.
int infer_rows_per_day(std::span<const double> times /*(rows)*/);

// `times` empty means the data has no dates, which this convention needs (an error).
ChronologicalSplit split_ett_months(std::span<const double> times /*(rows)*/);

ChronologicalSplit split_rows(const SplitSpec& spec, int rows, std::span<const double> times /*(rows) or empty*/);

}  // namespace aaren
