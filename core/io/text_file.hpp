#pragma once
// Reading whole text files with errors a user can act on, and splitting them into lines the way
// real files end them (LF, CRLF, a missing final newline, a UTF-8 byte order mark).
#include <string>
#include <string_view>
#include <vector>

namespace aaren {

// Throws std::runtime_error "PATH: cannot open (No such file or directory)" and the like.
std::string read_text_file(const std::string& path);

std::string_view strip_utf8_bom(std::string_view text);

// Lines without their "\n" or "\r\n"; no empty last line for a final newline.
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace aaren
