#pragma once
// Files are written whole or not at all: the bytes go to a temporary file beside the target
// ("TARGET.tmp-XXXXXX"), are flushed to the disk, and only then renamed over it. A crash, a kill or
// a full disk leaves the old file intact; at worst a temporary file remains, which no reader opens
// and remove_stale_temporary_files clears.
#include <string>
#include <string_view>

namespace aaren {

// Throws std::runtime_error naming the path, the reason and what to do about it:
// "runs/a/model.safetensors: cannot write (File too large: a file size limit was reached or the
// disk is full); the previous version is kept".
void write_file_atomically(const std::string& path, std::string_view bytes);

// True for the names write_file_atomically gives its temporary files.
bool is_temporary_file_name(std::string_view file_name);

// Removes what writes of `path` that never finished (the process was killed) left beside it.
// Returns how many files it removed; files it cannot remove are left alone.
int remove_stale_temporary_files(const std::string& path);

}  // namespace aaren
