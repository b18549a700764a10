#pragma once
// Headerless comma-separated matrices (the inputs of `aaren attention`): one row per line, the same
// number of numbers on every line, every number finite. Errors name the file, line and column.
// A file without numbers gives a 0 x 0 matrix: whether that is an error is the caller's call.
#include <string>
#include <string_view>

#include "core/util/matrix.hpp"

namespace aaren {

// `source` names the input in messages (a path, or "Q" for text given in memory).
Matrix<double> parse_matrix_csv(std::string_view text, const std::string& source);
Matrix<double> read_matrix_csv(const std::string& path);

// Shortest text that reads back to the same value (round trip), as the CSV writers print numbers.
std::string format_number(double value);
std::string format_number(float value);

}  // namespace aaren
