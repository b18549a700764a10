#include "core/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace aaren {

namespace {

constexpr std::string_view kTemporaryMarker = ".tmp-";
constexpr std::size_t kTemporarySuffixLength = 6;  // the XXXXXX that mkstemp replaces

std::string what_to_do(int error) {
  switch (error) {
    case ENOSPC: return "the disk is full; free some space or choose another folder";
    case EDQUOT: return "the disk quota is used up; free some space or choose another folder";
    case EFBIG: return "a file size limit was reached or the disk is full";
    case EROFS: return "the folder is on a read-only file system; choose another folder";
    case EACCES:
    case EPERM: return "choose a folder you may write to";
    case ENOENT: return "the folder does not exist";
    default: return {};
  }
}

[[noreturn]] void fail(const std::string& path, bool existed, int error) {
  std::string reason = std::strerror(error);
  if (const std::string remedy = what_to_do(error); !remedy.empty()) reason += ": " + remedy;
  throw FileWriteError(path, reason, existed);
}

// Makes the rename itself durable. A failure here is not reported: the new file is in place and
// complete, and only a power cut before the system flushes the folder could still undo the rename.
void sync_parent_folder(const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  std::string temp = path + std::string(kTemporaryMarker) + std::string(kTemporarySuffixLength, 'X');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, existed, errno);
  const auto give_up = [&](int error) {
    ::close(fd);
    ::unlink(temp.c_str());
    fail(path, existed, error);
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      give_up(errno);
    }
    written += std::size_t(n);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) give_up(errno);
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail(path, existed, error);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail(path, existed, error);
  }
  sync_parent_folder(path);
}

bool is_temporary_file_name(std::string_view file_name) {
  if (file_name.size() < kTemporaryMarker.size() + kTemporarySuffixLength) return false;
  const std::string_view suffix = file_name.substr(file_name.size() - kTemporarySuffixLength);
  const std::string_view marker =
      file_name.substr(file_name.size() - kTemporarySuffixLength - kTemporaryMarker.size(), kTemporaryMarker.size());
  return marker == kTemporaryMarker &&
         std::all_of(suffix.begin(), suffix.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

int remove_stale_temporary_files(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string prefix = target.filename().string() + std::string(kTemporaryMarker);
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) return 0;
  int removed = 0;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + kTemporarySuffixLength || !name.starts_with(prefix) ||
        !is_temporary_file_name(name))
      continue;
    std::error_code remove_error;
    if (fs::remove(it->path(), remove_error)) ++removed;
  }
  return removed;
}

}  // namespace aaren
