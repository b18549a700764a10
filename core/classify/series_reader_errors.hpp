#pragma once
// How the readers of classification files (.ts, long and wide CSV) point at a mistake: every
// refusal is a FileLineError "FILE:LINE:COL: reason", the way compilers and the lesson reader
// write positions (docs/DESIGN.md section 5, "Reading users' files"), so an editor or the Data
// page can jump to the token at fault.
#include <cstddef>
#include <string>
#include <string_view>

namespace aaren {

struct FilePosition {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in characters (UTF-8 code points), not bytes
};

// The 1-based character column of the byte at `byte_offset` of `line`.
int character_column(std::string_view line, std::size_t byte_offset);

// Just past the last character of `text` (its lines as split_lines splits them): where a reader
// points when something the file should hold never comes ("no @data line").
FilePosition end_of_text(std::string_view text);

// Throws FileLineError "NAME:LINE:COLUMN: REASON".
[[noreturn]] void refuse_at(const std::string& name, int line, int column, const std::string& reason);

// "'text'", for quoting the user's own words in a reason; a text of more than 60 characters is
// cut there, ending in "...", so that one runaway token does not make a message of megabytes.
std::string in_quotes(std::string_view text);

// Why `token`, which is neither a number nor a missing value, cannot be a value: "'n/a' is not a
// number", "'1e999' is too large for a number".
std::string not_a_value(std::string_view token);

}  // namespace aaren
