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

// Finite numbers written with `decimal_mark`, '.' or ',', surrounding blanks ignored:
// "1.5", "-2e3", "+7", or with ',' "1,5" and "-2,5E-3" (what Excel writes in German, French,
// Spanish or Italian settings). The other mark may group the integer part in threes:
// "1,234.5" with '.', "1.234,5" with ','.
std::optional<double> parse_number_cell(std::string_view cell, char decimal_mark = '.');

// A number with one mark or the other: for telling names from values before the mark is known.
bool is_number_with_either_mark(std::string_view cell);

// Why a non-missing cell is not a usable number, e.g. "'n/a' is not a number", with a hint
// when the cell would be a number with the other decimal mark.
std::string explain_not_a_number(std::string_view cell, char decimal_mark);

std::string_view trim_blanks(std::string_view text);
// A space or a tab: what separates and surrounds the cells of a line.
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
// A..Z to a..z, other bytes as they are: for names that are matched in any case (headers, tags).
std::string ascii_lowercase(std::string_view text);

}  // namespace aaren
