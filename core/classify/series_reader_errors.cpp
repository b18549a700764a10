#include "core/classify/series_reader_errors.hpp"

#include <algorithm>

#include "core/data/csv_cells.hpp"
#include "core/io/file_line_error.hpp"
#include "core/io/text_content.hpp"
#include "core/io/text_file.hpp"

namespace aaren {

int character_column(std::string_view line, std::size_t byte_offset) {
  return 1 + int(utf8_characters(line.substr(0, std::min(byte_offset, line.size()))));
}

FilePosition end_of_text(std::string_view text) {
  const std::vector<std::string_view> lines = split_lines(text);
  if (lines.empty()) return {};
  if (text.back() == '\n') return {int(lines.size()) + 1, 1};
  return {int(lines.size()), character_column(lines.back(), lines.back().size())};
}

void refuse_at(const std::string& name, int line, int column, const std::string& reason) {
  throw FileLineError(name + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + reason, line);
}

std::string in_quotes(std::string_view text) {
  constexpr int kLongest = 60;
  std::size_t cut = 0;
  int characters = 0;
  while (cut < text.size() && characters < kLongest) {
    ++cut;
    while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
    ++characters;
  }
  std::string out(1, '\'');
  out.append(text.substr(0, cut));
  if (cut < text.size()) out += "...";
  out.push_back('\'');
  return out;
}

std::string not_a_value(std::string_view token) {
  // csv_cells words the reason; its hint about choosing the other decimal mark does not apply here,
  // where the mark is always '.'.
  const std::string explained = explain_not_a_number(token, '.');
  const std::string reason = explained.substr(explained.rfind("' is ") + 1);
  if (reason.rfind(" is not a number with", 0) == 0)
    return in_quotes(token) + " is not a number (the decimal mark is '.')";
  return in_quotes(token) + reason;
}

}  // namespace aaren
