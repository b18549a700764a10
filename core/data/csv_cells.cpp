#include "core/data/csv_cells.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace aaren {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool looks_like_decimal_comma(std::string_view cell) {
  cell = trim_blanks(cell);
  if (!cell.empty() && (cell.front() == '-' || cell.front() == '+')) cell.remove_prefix(1);
  const std::size_t comma = cell.find(',');
  if (comma == std::string_view::npos || comma == 0 || comma + 1 == cell.size()) return false;
  for (std::size_t i = 0; i < cell.size(); ++i)
    if (i != comma && !is_digit(cell[i])) return false;
  return true;
}

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool is_missing_cell(std::string_view cell) {
  cell = trim_blanks(cell);
  return cell.empty() || cell == "NA" || cell == "NaN" || cell == "nan";
}

std::optional<double> parse_number_cell(std::string_view cell) {
  cell = trim_blanks(cell);
  const bool plus = !cell.empty() && cell.front() == '+';
  if (plus) cell.remove_prefix(1);
  // from_chars would also take "inf" and "nan"; a number here starts with a digit, a sign or a
  // point, and "+-5" is no number either.
  if (cell.empty() || !(is_digit(cell.front()) || (cell.front() == '-' && !plus) || cell.front() == '.'))
    return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (error != std::errc() || end != cell.data() + cell.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string explain_not_a_number(std::string_view cell, char delimiter) {
  const std::string_view trimmed = trim_blanks(cell);
  std::string quoted(1, '\'');
  quoted.append(trimmed).push_back('\'');
  double value = 0;
  const auto [end, error] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
  if (error == std::errc::result_out_of_range && end == trimmed.data() + trimmed.size()) {
    const bool huge = std::abs(std::strtod(std::string(trimmed).c_str(), nullptr)) > 1.0;
    return quoted + " is too " + (huge ? "large" : "small") + " for a number";
  }
  if (delimiter != ',' && looks_like_decimal_comma(trimmed))
    return quoted + " is not a number (decimal commas are not supported; save the file with decimal points)";
  return quoted + " is not a number";
}

}  // namespace aaren
