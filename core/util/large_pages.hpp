#pragma once
// Memory for large buffers that are read from end to end, such as the Transformer's KV cache
// (core/nn/kv_cache.hpp) and the read-bandwidth probe (core/bench/memory_bandwidth.hpp): aligned
// to 2 MiB and, where the system offers them (Linux's transparent huge pages, asked for by
// madvise), backed by 2 MiB pages. A read then crosses a page border every 2 MiB instead of every
// 4 KiB, so the hardware prefetchers, which stop at page borders, keep streaming, and the address
// translations of a whole buffer fit the TLB. Elsewhere the memory is ordinary and works the same.
#include <cstddef>
#include <cstdlib>
#include <memory>

namespace aaren {

inline constexpr std::size_t large_page_bytes = std::size_t(2) << 20;

struct FreeLargePages {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
using LargePageBuffer = std::unique_ptr<T[], FreeLargePages>;

// `bytes` rounded up to whole large pages, uninitialized (so untouched pages cost no memory).
// Throws std::bad_alloc when the memory cannot be had.
void* allocate_large_pages(std::size_t bytes);

template <class T>
LargePageBuffer<T> large_page_buffer(std::size_t count) {
  return LargePageBuffer<T>(static_cast<T*>(allocate_large_pages(count * sizeof(T))));
}

}  // namespace aaren
