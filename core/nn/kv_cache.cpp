#include "core/nn/kv_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace aaren {

namespace {

// A chunk is one large page (core/util/large_pages.hpp).
constexpr std::size_t kv_chunk_target_bytes = large_page_bytes;

long whole_tiles(long tokens) { return (tokens + kv_tile_tokens - 1) / kv_tile_tokens * kv_tile_tokens; }

}  // namespace

template <class T>
KvCache<T>::KvCache(int d_model, int heads, long chunk_tokens) : d_model_(d_model), heads_(heads) {
  if (heads < 1 || d_model < 1 || d_model % heads != 0)
    throw std::invalid_argument("KV cache: the model width " + std::to_string(d_model) + " cannot be split into " +
                                std::to_string(heads) + " heads; choose a number of heads that divides it");
  // A large page a chunk: each head's run in it is long enough for the prefetchers, and a short
  // stream of a wide model does not hold much more than it uses (pages never written take no
  // memory).
  const long target = long(kv_chunk_target_bytes / (2 * std::size_t(d_model) * sizeof(T)));
  chunk_tokens_ = whole_tiles(std::max(1L, chunk_tokens > 0 ? chunk_tokens : target));
}

template <class T>
void KvCache<T>::add_chunk() {
  chunks_.push_back(large_page_buffer<T>(2 * std::size_t(chunk_tokens_) * std::size_t(d_model_)));
}

template <class T>
void KvCache<T>::reserve(long tokens) {
  while (long(chunks_.size()) * chunk_tokens_ < tokens) add_chunk();
}

template <class T>
void KvCache<T>::append(const T* key, const T* value) {
  const long in_chunk = tokens_ % chunk_tokens_;
  if (in_chunk == 0 && long(chunks_.size()) * chunk_tokens_ <= tokens_) add_chunk();
  const long chunk = tokens_ / chunk_tokens_;
  const long tile = in_chunk / kv_tile_tokens;
  const int slot = int(in_chunk % kv_tile_tokens);
  const int dh = d_head();
  for (int h = 0; h < heads_; ++h) {
    T* keys = chunks_[std::size_t(chunk)].get() + head_offset(h) + tile * tile_size();  // (dh, tile)
    T* values = keys + long(dh) * kv_tile_tokens;                                         // (tile, dh)
    if (slot == 0) std::fill(keys, keys + tile_size(), T(0));
    const T* k = key + long(h) * dh;
    const T* v = value + long(h) * dh;
    for (int j = 0; j < dh; ++j) keys[long(j) * kv_tile_tokens + slot] = k[j];
    std::copy(v, v + dh, values + long(slot) * dh);
  }
  ++tokens_;
}

template class KvCache<float>;
template class KvCache<double>;

}  // namespace aaren
