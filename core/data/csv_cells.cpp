#include "core/data/csv_cells.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace aaren {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t count_digits(std::string_view text, std::size_t at) {
  std::size_t n = 0;
  while (at + n < text.size() && is_digit(text[at + n])) ++n;
  return n;
}

// "[sign]int[mark digits][e[sign]digits]", where int is plain digits or digits grouped in threes
// by `group` ("1.234.567"), rewritten in C notation ("1234567.5e3"); nullopt for any other form.
std::optional<std::string> to_c_notation(std::string_view cell, char mark, char group) {
  std::string out;
  std::size_t at = 0;
  if (at < cell.size() && (cell[at] == '-' || cell[at] == '+')) out += cell[at++];
  const std::size_t lead = count_digits(cell, at);
  if (lead == 0) return std::nullopt;
  out.append(cell.substr(at, lead));
  at += lead;
  if (at < cell.size() && cell[at] == group) {
    if (lead > 3 || cell[at - lead] == '0') return std::nullopt;
    while (at < cell.size() && cell[at] == group) {
      if (count_digits(cell, at + 1) != 3) return std::nullopt;
      out.append(cell.substr(at + 1, 3));
      at += 4;
    }
  }
  if (at < cell.size() && cell[at] == mark) {
    const std::size_t fraction = count_digits(cell, at + 1);
    if (fraction == 0) return std::nullopt;
    out += '.';
    out.append(cell.substr(at + 1, fraction));
    at += 1 + fraction;
  }
  if (at < cell.size() && (cell[at] == 'e' || cell[at] == 'E')) {
    out += 'e';
    ++at;
    if (at < cell.size() && (cell[at] == '-' || cell[at] == '+')) out += cell[at++];
    const std::size_t exponent = count_digits(cell, at);
    if (exponent == 0) return std::nullopt;
    out.append(cell.substr(at, exponent));
    at += exponent;
  }
  if (at != cell.size()) return std::nullopt;
  return out;
}

// C notation only: from_chars would also take "inf" and "nan"; a number here starts with a digit,
// a sign or a point, and "+-5" is no number either.
std::optional<double> parse_c_number(std::string_view cell) {
  const bool plus = !cell.empty() && cell.front() == '+';
  if (plus) cell.remove_prefix(1);
  if (cell.empty() || !(is_digit(cell.front()) || (cell.front() == '-' && !plus) || cell.front() == '.'))
    return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (error != std::errc() || end != cell.data() + cell.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

char other_mark(char decimal_mark) { return decimal_mark == ',' ? '.' : ','; }

}  // namespace

std::string ascii_lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
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

std::optional<double> parse_number_cell(std::string_view cell, char decimal_mark) {
  cell = trim_blanks(cell);
  // The plain C form first: it is what nearly every cell of nearly every file is.
  if (decimal_mark != ',')
    if (std::optional<double> value = parse_c_number(cell)) return value;
  const std::optional<std::string> c_form = to_c_notation(cell, decimal_mark, other_mark(decimal_mark));
  if (!c_form) return std::nullopt;
  return parse_c_number(*c_form);
}

bool is_number_with_either_mark(std::string_view cell) {
  return parse_number_cell(cell, '.').has_value() || parse_number_cell(cell, ',').has_value();
}

std::string explain_not_a_number(std::string_view cell, char decimal_mark) {
  const std::string_view trimmed = trim_blanks(cell);
  std::string quoted(1, '\'');
  quoted.append(trimmed).push_back('\'');
  const std::optional<std::string> c_form = to_c_notation(trimmed, decimal_mark, other_mark(decimal_mark));
  const std::string_view digits = c_form ? std::string_view(*c_form) : trimmed;
  double value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error == std::errc::result_out_of_range && end == digits.data() + digits.size()) {
    const bool huge = std::abs(std::strtod(std::string(digits).c_str(), nullptr)) > 1.0;
    return quoted + " is too " + (huge ? "large" : "small") + " for a number";
  }
  if (parse_number_cell(trimmed, other_mark(decimal_mark)))
    return quoted + " is not a number with the decimal mark '" + std::string(1, decimal_mark) +
           "' (the decimal mark chosen for this file; choose '" + std::string(1, other_mark(decimal_mark)) +
           "' if it writes numbers like this)";
  return quoted + " is not a number";
}

}  // namespace aaren
