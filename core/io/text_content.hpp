#pragma once
// Telling a text file from one that is not, before any reader parses it: a PNG image, a program,
// a zipped workbook or a UTF-16 export chosen by mistake is refused at once with what it looks
// like, instead of being previewed as garbage and blamed on the delimiter. Text in a single-byte
// encoding (Windows-1252, Latin-1: a few bytes that are not UTF-8) still counts as text.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace aaren {

// How many leading bytes the check looks at: enough for any signature and a few lines of text.
inline constexpr std::size_t kTextCheckBytes = 8192;

// Why `head` (a file's first bytes) is not text, as the words that follow "FILE is not a text file":
// "(it starts like a PNG image)", "(it is UTF-16 text without a byte order mark: save it as UTF-8)";
// nullopt for text, and for an empty head.
std::optional<std::string> describe_non_text(std::string_view head);

bool is_valid_utf8(std::string_view text);

inline bool is_utf8_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
// The characters of UTF-8 text, as a reader counts them ("±" is one, though two bytes).
std::size_t utf8_characters(std::string_view text);

// Text in Windows-1252 (Latin-1 with printable characters in 0x80-0x9F), as Excel writes CSV in
// Western European settings, re-encoded as UTF-8: "Temp\xe9rature" becomes "Température".
std::string utf8_from_windows_1252(std::string_view text);

// Throws std::runtime_error "NAME is not a text file (it starts like a PNG image)" when
// describe_non_text finds a reason; looks at no more than kTextCheckBytes of `text`.
void require_text(std::string_view text, const std::string& name);

}  // namespace aaren
