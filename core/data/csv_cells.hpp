#pragma once
// What one cell of a data file means: a number, a missing value, or neither (and why not).
// Missing means an empty cell or one of the markers that R and pandas write for a gap:
// NA, NaN, nan. Anything else that is not a finite number is an error the user must see,
// so 'n/a' or '-' are reported rather than silently dropped.
#include <optional>
#include <string>
#include <string_view>

namespace aaren {

bool is_missing_cell(std::string_view cell);

// Finite numbers in C locale notation ("1.5", "-2e3", "+7"), surrounding blanks ignored.
std::optional<double> parse_number_cell(std::string_view cell);

// Why a non-missing cell is not a usable number, e.g. "'n/a' is not a number", with a hint for
// decimal commas when the file's delimiter is not a comma.
std::string explain_not_a_number(std::string_view cell, char delimiter);

// "3,25" or "-1,5": what a spreadsheet in a decimal-comma locale writes.
bool looks_like_decimal_comma(std::string_view cell);

std::string_view trim_blanks(std::string_view text);

}  // namespace aaren
