#pragma once
// Files are written whole or not at all: the bytes go to a temporary file beside the target,
// are flushed, and only then renamed over it. A crash or a full disk leaves the old file intact.
#include <string>
#include <string_view>

namespace aaren {

// Throws std::runtime_error naming the path and the reason (folder missing, read-only, disk full).
void write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace aaren
