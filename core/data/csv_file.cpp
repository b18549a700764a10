#include "core/data/csv_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace aaren {

namespace {

std::ifstream open_for_reading(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + ")");
  return in;
}

std::uint64_t size_or_zero(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  return ec ? 0 : std::uint64_t(size);
}

}  // namespace

CsvFile::CsvFile(const std::string& path, char delimiter)
    : name_(std::filesystem::path(path).filename().string()),
      in_(open_for_reading(path)),
      size_(size_or_zero(path)),
      records_(in_, delimiter, name_) {}

}  // namespace aaren
