#include "core/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace aaren {

namespace {
[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw std::runtime_error(path + ": cannot " + what + " (" + std::strerror(error) + ")");
}
}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, "write", errno);
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      fail(path, "write", error);
    }
    written += std::size_t(n);
  }
  if (::fsync(fd) != 0 || ::fchmod(fd, 0644) != 0) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    fail(path, "write", error);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail(path, "write", error);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail(path, "replace", error);
  }
}

}  // namespace aaren
