#pragma once
// Which decimal mark a file's numbers use, told from the numbers themselves. "1,5" can only be a
// decimal comma and "1.5" only a decimal point; "1,234" and "1.234" could be either a fraction or
// a thousands group. A file with both kinds of certain cells, or with nothing but uncertain ones
// where the choice changes the values, is ambiguous: the readers then refuse to guess and ask the
// user to choose (docs/DESIGN.md, section 5).
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace aaren {

struct CsvRecord;

// The readers' refusal to guess: the message says why the mark is open and asks for one.
struct AmbiguousDecimalMark : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct DecimalMarkGuess {
  char mark = '.';
  std::string ambiguity;  // why the numbers leave the mark open, naming lines; "" when they do not
};

// Looks at the given columns of records[first_row..]. `delimiter` matters for uncertain points:
// "1.234" in a semicolon file, as Excel writes in decimal-comma countries, is as likely 1234.
DecimalMarkGuess guess_decimal_mark(const std::vector<CsvRecord>& records, std::size_t first_row,
                                    const std::vector<int>& columns, char delimiter);

// Throws std::invalid_argument for a mark other than '.' or ','.
void check_decimal_mark(char mark);

}  // namespace aaren
