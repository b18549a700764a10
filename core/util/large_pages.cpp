#include "core/util/large_pages.hpp"

#include <algorithm>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace aaren {

void* allocate_large_pages(std::size_t bytes) {
  const std::size_t whole_pages =
      (std::max<std::size_t>(bytes, 1) + large_page_bytes - 1) / large_page_bytes * large_page_bytes;
  void* memory = std::aligned_alloc(large_page_bytes, whole_pages);
  if (!memory) throw std::bad_alloc();
#if defined(__linux__)
  madvise(memory, whole_pages, MADV_HUGEPAGE);  // a hint; refused or ignored, the memory works the same
#endif
  return memory;
}

}  // namespace aaren
