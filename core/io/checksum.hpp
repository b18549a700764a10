#pragma once
// FNV-1a, 64 bits (Fowler, Noll, Vo): a checksum that detects any change to a single byte, since
// each step of it is a bijection of its state. Checkpoints store it to catch damaged values, which
// no structural check can see. It guards against accidents, not against deliberate forgery.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace aaren {

class Fnv1a64 {
 public:
  void add(std::string_view bytes);
  // The values' bytes as a little-endian file holds them, whatever the host's byte order.
  void add_little_endian(std::span<const float> values);
  std::uint64_t value() const { return state_; }
  // 16 lowercase hexadecimal digits.
  std::string hex() const;

 private:
  void add_byte(unsigned char byte) { state_ = (state_ ^ byte) * 0x100000001b3ULL; }

  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

}  // namespace aaren
