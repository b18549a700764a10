#pragma once
// Files are written whole or not at all: the bytes go to a temporary file beside the target
// ("TARGET.tmp-XXXXXX"), are flushed to the disk, and only then renamed over it. A crash, a kill or
// a full disk leaves the old file intact; at worst a temporary file remains, which no reader opens
// and remove_stale_temporary_files clears.
#include <stdexcept>
#include <string>
#include <string_view>

namespace aaren {

// what(): "runs/a/model.safetensors: cannot write (File too large: a file size limit was reached
// or the disk is full); the previous version is kept". reason() is the same without the path, for
// callers that name the file their own way: "File too large: ...; the previous version is kept".
class FileWriteError : public std::runtime_error {
 public:
  FileWriteError(const std::string& path, const std::string& cause, bool previous_kept)
      : std::runtime_error(path + ": cannot write (" + cause + ")" + kept(previous_kept)),
        reason_(cause + kept(previous_kept)) {}
  const std::string& reason() const { return reason_; }

 private:
  static std::string kept(bool previous_kept) { return previous_kept ? "; the previous version is kept" : ""; }
  std::string reason_;
};

// Throws FileWriteError naming the path, the reason and what to do about it.
void write_file_atomically(const std::string& path, std::string_view bytes);

// True for the names write_file_atomically gives its temporary files.
bool is_temporary_file_name(std::string_view file_name);

// Removes what writes of `path` that never finished (the process was killed) left beside it.
// Returns how many files it removed; files it cannot remove are left alone.
int remove_stale_temporary_files(const std::string& path);

}  // namespace aaren
