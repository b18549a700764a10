#include "core/io/checksum.hpp"

#include <bit>

namespace aaren {

void Fnv1a64::add(std::string_view bytes) {
  for (const char c : bytes) add_byte(static_cast<unsigned char>(c));
}

void Fnv1a64::add_little_endian(std::span<const float> values) {
  for (const float value : values) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    for (int i = 0; i < 4; ++i) add_byte(static_cast<unsigned char>((bits >> (8 * i)) & 0xFF));
  }
}

std::string Fnv1a64::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 0; i < 16; ++i) text[std::size_t(15 - i)] = kDigits[(state_ >> (4 * i)) & 0xF];
  return text;
}

}  // namespace aaren
