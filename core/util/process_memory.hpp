#pragma once
// The resident memory of this process, as the operating system counts it.
#include <cstddef>

namespace aaren {

// Bytes resident now (Linux: /proc/self/statm); 0 where the system does not say.
std::size_t resident_bytes();

}  // namespace aaren
