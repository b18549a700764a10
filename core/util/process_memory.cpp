#include "core/util/process_memory.hpp"

#include <unistd.h>

#include <cstdio>

namespace aaren {

std::size_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (read != 2) return 0;
  return std::size_t(resident) * std::size_t(::sysconf(_SC_PAGESIZE));
}

}  // namespace aaren
