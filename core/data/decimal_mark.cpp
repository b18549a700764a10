#include "core/data/decimal_mark.hpp"

#include <optional>
#include <stdexcept>

#include "core/data/csv_cells.hpp"
#include "core/data/csv_records.hpp"

namespace aaren {

namespace {

// The first cell of one kind, for the message.
struct Example {
  int line = 0;
  std::string cell;
  void note(int at, std::string_view text) {
    if (line == 0) {
      line = at;
      cell = std::string(text);
    }
  }
  explicit operator bool() const { return line > 0; }
  std::string describe() const { return "line " + std::to_string(line) + " has '" + cell + "'"; }
};

}  // namespace

void check_decimal_mark(char mark) {
  if (mark != '.' && mark != ',')
    throw std::invalid_argument(std::string("the decimal mark must be '.' or ',', not '") + mark + "'");
}

DecimalMarkGuess guess_decimal_mark(const std::vector<CsvRecord>& records, std::size_t first_row,
                                    const std::vector<int>& columns, char delimiter) {
  Example point, comma, open_point, open_comma;
  for (std::size_t r = first_row; r < records.size(); ++r) {
    for (int j : columns) {
      const std::vector<std::string>& fields = records[r].fields;
      if (std::size_t(j) >= fields.size()) continue;
      const std::string_view cell = trim_blanks(fields[std::size_t(j)]);
      const bool has_point = cell.find('.') != std::string_view::npos;
      const bool has_comma = cell.find(',') != std::string_view::npos;
      if (!has_point && !has_comma) continue;  // an integer says nothing
      const std::optional<double> as_point = parse_number_cell(cell, '.');
      const std::optional<double> as_comma = parse_number_cell(cell, ',');
      const int line = records[r].line;
      if (as_point && !as_comma) point.note(line, cell);
      else if (as_comma && !as_point) comma.note(line, cell);
      else if (as_point && as_comma) (has_comma ? open_comma : open_point).note(line, cell);
    }
  }
  DecimalMarkGuess guess;
  if (point && comma) {
    guess.ambiguity = "the numbers use both decimal marks: " + point.describe() + " and " + comma.describe();
    return guess;
  }
  if (comma) {
    guess.mark = ',';
    return guess;
  }
  if (point) return guess;
  // Only cells such as "1,234" or "1.234": a fraction with one mark, a thousands group with the other.
  const Example& open = open_comma ? open_comma : open_point;
  if (open_comma || (open_point && delimiter == ';'))
    guess.ambiguity = "the decimal mark cannot be told from the numbers: " + open.describe() +
                      ", a fraction with one mark and a thousands group with the other";
  return guess;
}

}  // namespace aaren
