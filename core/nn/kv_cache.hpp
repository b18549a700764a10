#pragma once
// The Transformer's KV cache of one layer, laid out for the decode step (docs/DESIGN.md section 4).
// A decode step reads every cached key and value once, so its time is the time to read them; the
// layout makes that read one sequential run of memory per head, which the hardware prefetchers keep
// ahead of:
//   - Tokens lie in chunks of chunk_tokens() tokens, each a large page (core/util/large_pages.hpp),
//     allocated as the cache grows (or up front by reserve) and never moved, so a new token costs
//     no copy of the tokens before it.
//   - Within a chunk each head owns one contiguous run of tiles of kv_tile_tokens tokens. A tile
//     holds its keys transposed, (d_head, kv_tile_tokens), then its values, (kv_tile_tokens,
//     d_head): a tile's scores are d_head vector multiply-adds across its tokens, and its weighted
//     sum of values is a vector multiply-add across d_head per token, so both vectorize without
//     shuffles or horizontal sums.
// The slots of a tile that no token has reached yet hold zeros.
#include <cstddef>
#include <vector>

#include "core/util/large_pages.hpp"

namespace aaren {

inline constexpr int kv_tile_tokens = 64;

template <class T>
class KvCache {
 public:
  // Throws std::invalid_argument when `heads` does not divide `d_model`. chunk_tokens <= 0 picks
  // chunks of one large page; otherwise it is rounded up to whole tiles (tests use small chunks to
  // cross their borders).
  KvCache(int d_model, int heads, long chunk_tokens = 0);

  // Allocates the chunks for `tokens` tokens now, so appends up to there never allocate.
  void reserve(long tokens);
  // Forgets every token and keeps the memory.
  void clear() { tokens_ = 0; }
  // Appends the next token's key and value, each (d_model) with head h in columns
  // h * d_head .. (h + 1) * d_head - 1.
  void append(const T* key, const T* value);

  long tokens() const { return tokens_; }
  int d_model() const { return d_model_; }
  int heads() const { return heads_; }
  int d_head() const { return d_model_ / heads_; }
  long chunk_tokens() const { return chunk_tokens_; }
  // Keys and values of the tokens held, as a row-major cache stores them: 2 tokens d_model values.
  std::size_t bytes_in_use() const { return 2 * std::size_t(tokens_) * std::size_t(d_model_) * sizeof(T); }

  // Values in one tile: its keys (d_head, kv_tile_tokens), then its values (kv_tile_tokens, d_head).
  long tile_size() const { return 2L * kv_tile_tokens * d_head(); }
  // The first tile of `head`'s run in chunk `chunk`; the run's tiles follow one another.
  const T* head_tiles(long chunk, int head) const { return chunks_[std::size_t(chunk)].get() + head_offset(head); }

 private:
  long head_offset(int head) const { return long(head) * (chunk_tokens_ / kv_tile_tokens) * tile_size(); }
  void add_chunk();

  int d_model_, heads_;
  long chunk_tokens_;
  long tokens_ = 0;
  std::vector<LargePageBuffer<T>> chunks_;
};

}  // namespace aaren
