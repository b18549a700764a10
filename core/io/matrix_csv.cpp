#include "core/io/matrix_csv.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/io/text_content.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

template <class T>
std::string shortest(T value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
}

}  // namespace

Matrix<double> parse_matrix_csv(std::string_view text, const std::string& source) {
  require_text(text, source);
  text = strip_utf8_bom(text);
  Matrix<double> m;
  int line_number = 0;
  int width_line = 0;
  for (std::string_view line : split_lines(text)) {
    ++line_number;
    if (trim(line).empty()) continue;
    const std::string where = source + ", line " + std::to_string(line_number);
    int column = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::string_view cell =
          trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      ++column;
      const std::string at = where + ", column " + std::to_string(column);
      if (cell.empty()) throw std::runtime_error(at + ": the cell is empty");
      // A '+' may stand before a number, but not before its '-' ("+-5").
      std::string_view digits = cell.front() == '+' && !cell.substr(1).starts_with('-') ? cell.substr(1) : cell;
      double value = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc::result_out_of_range) {
        const bool huge = std::abs(std::strtod(std::string(digits).c_str(), nullptr)) > 1.0;
        throw std::runtime_error(at + ": '" + std::string(cell) + "' is too " + (huge ? "large" : "small") +
                                 " for a double");
      }
      if (ec != std::errc() || end != digits.data() + digits.size())
        throw std::runtime_error(at + ": '" + std::string(cell) + "' is not a number");
      if (!std::isfinite(value)) throw std::runtime_error(at + ": '" + std::string(cell) + "' is not a finite number");
      m.data.push_back(value);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (m.rows == 0) {
      m.cols = column;
      width_line = line_number;
    } else if (column != m.cols) {
      throw std::runtime_error(where + ": " + std::to_string(column) + " columns, but line " +
                               std::to_string(width_line) + " has " + std::to_string(m.cols));
    }
    ++m.rows;
  }
  return m;
}

Matrix<double> read_matrix_csv(const std::string& path) { return parse_matrix_csv(read_text_file(path), path); }

std::string format_number(double value) { return shortest(value); }
std::string format_number(float value) { return shortest(value); }

}  // namespace aaren
