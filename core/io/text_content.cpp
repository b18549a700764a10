#include "core/io/text_content.hpp"

#include <algorithm>
#include <stdexcept>

namespace aaren {

namespace {

struct Signature {
  std::string_view magic;
  const char* looks_like;
};

// Files people pick by mistake in an "Open Data File" dialog, by the bytes they start with.
constexpr Signature kSignatures[] = {
    {"\x89PNG\r\n\x1a\n", "a PNG image"},
    {"\xff\xd8\xff", "a JPEG image"},
    {"GIF87a", "a GIF image"},
    {"GIF89a", "a GIF image"},
    {"%PDF-", "a PDF document"},
    {"\x7f" "ELF", "an ELF program or library"},
    {"MZ", "a Windows program"},
    {"\x1f\x8b", "a gzip archive (unpack it first)"},
    {"BZh", "a bzip2 archive (unpack it first)"},
    {"\xfd" "7zXZ", "an xz archive (unpack it first)"},
    {"\x28\xb5\x2f\xfd", "a zstd archive (unpack it first)"},
    {"7z\xbc\xaf\x27\x1c", "a 7-Zip archive (unpack it first)"},
    {"PK\x03\x04", "a ZIP archive, as .xlsx and .ods workbooks are (save the sheet as CSV)"},
    {"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office file such as .xls (save the sheet as CSV)"},
    {"SQLite format 3", "an SQLite database"},
    {"PAR1", "a Parquet file"},
    {"\x89HDF\r\n\x1a\n", "an HDF5 file"},
    {"\x93NUMPY", "a NumPy array (.npy)"},
};

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// "MZ" and "BZh" are also how a line of text may begin: they count only with what follows them
// in real files (a DOS header's control bytes, bzip2's block size digit and block magic).
bool signature_matches(std::string_view head, const Signature& s) {
  if (!starts_with(head, s.magic)) return false;
  if (s.magic == "MZ") return head.size() >= 4 && (head[2] < ' ' || head[3] < ' ' || head[2] > '~' || head[3] > '~');
  if (s.magic == "BZh") return head.size() >= 10 && head[3] >= '1' && head[3] <= '9' && head.substr(4, 6) == "1AY&SY";
  return true;
}

// A safetensors checkpoint: an 8-byte little-endian header length, then the JSON header.
bool looks_like_safetensors(std::string_view head) {
  if (head.size() < 10 || head[8] != '{') return false;
  unsigned long long length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(head[std::size_t(i)]);
  return length >= 2 && length < (1ULL << 32);
}

// UTF-16 without a byte order mark: every other byte is NUL where the text is ASCII.
bool looks_like_utf16(std::string_view head) {
  std::size_t even_nul = 0, odd_nul = 0;
  const std::size_t pairs = head.size() / 2;
  if (pairs < 2) return false;
  for (std::size_t i = 0; i + 1 < head.size(); i += 2) {
    even_nul += head[i] == '\0';
    odd_nul += head[i + 1] == '\0';
  }
  return std::max(even_nul, odd_nul) * 10 >= pairs * 7 && std::min(even_nul, odd_nul) * 10 <= pairs;
}

// Control bytes no text file holds: everything below a blank but tab, line feed, form feed and
// carriage return, plus DEL. (Ctrl-Z, which old DOS tools put at the very end, is let through.)
bool is_binary_control(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1a) || c == 0x7f;
}

// How many bytes the UTF-8 character starting with `lead` has; 0 for a byte no character starts with.
std::size_t utf8_length_from_lead(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

// The length of the valid UTF-8 sequence at `at`, or 0. With `cut_is_valid`, a sequence cut off by
// the end of the text counts as valid (a head ends wherever kTextCheckBytes falls).
std::size_t utf8_sequence_length(std::string_view text, std::size_t at, bool cut_is_valid) {
  const std::size_t length = utf8_length_from_lead(static_cast<unsigned char>(text[at]));
  for (std::size_t i = 1; i < length; ++i) {
    if (at + i >= text.size()) return cut_is_valid ? text.size() - at : 0;
    if ((static_cast<unsigned char>(text[at + i]) & 0xc0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

std::optional<std::string> describe_non_text(std::string_view head) {
  head = head.substr(0, kTextCheckBytes);
  if (head.empty()) return std::nullopt;
  for (const Signature& s : kSignatures)
    if (signature_matches(head, s)) return "(it starts like " + std::string(s.looks_like) + ")";
  if (starts_with(head, std::string_view("\xff\xfe\0\0", 4)) || starts_with(head, std::string_view("\0\0\xfe\xff", 4)))
    return std::string("(it is UTF-32 text: save it as UTF-8)");
  if (starts_with(head, "\xff\xfe") || starts_with(head, "\xfe\xff"))
    return std::string("(it is UTF-16 text: save it as UTF-8)");
  if (looks_like_utf16(head)) return std::string("(it is UTF-16 text without a byte order mark: save it as UTF-8)");
  if (looks_like_safetensors(head)) return std::string("(it starts like a safetensors checkpoint)");

  std::size_t controls = 0, invalid = 0, first_control = head.size();
  for (std::size_t i = 0; i < head.size();) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c < 0x80) {
      if (c == 0) return "(it holds a NUL byte at byte " + std::to_string(i + 1) + ")";
      if (is_binary_control(c) && controls++ == 0) first_control = i;
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(head, i, true);
    if (length == 0) ++invalid;
    i += length == 0 ? 1 : length;
  }
  // A stray control byte may be a typo in a text file; several in the first lines are not text.
  if (controls >= 4 || (controls >= 2 && controls * 100 > head.size()))
    return "(it holds control bytes that text does not, the first at byte " + std::to_string(first_control + 1) + ")";
  // A few bytes that are not UTF-8 are accents in a single-byte encoding ("Temp\xe9rature" in
  // Latin-1); many are binary data.
  if (invalid >= 4 && invalid * 20 > head.size()) return std::string("(most of its first bytes are neither UTF-8 nor plain text)");
  return std::nullopt;
}

std::size_t utf8_characters(std::string_view text) {
  return std::size_t(std::count_if(text.begin(), text.end(), [](char c) { return !is_utf8_continuation_byte(c); }));
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i, false);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string utf8_from_windows_1252(std::string_view text) {
  // 0x80-0x9F; 0 where Windows-1252 leaves the byte undefined (then read as Latin-1's control).
  static constexpr char16_t kHigh[32] = {0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                                         0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                                         0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178};
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    char16_t code = byte;
    if (byte >= 0x80 && byte < 0xA0 && kHigh[byte - 0x80] != 0) code = kHigh[byte - 0x80];
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xC0 | (code >> 6));
      out += char(0x80 | (code & 0x3F));
    } else {
      out += char(0xE0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    }
  }
  return out;
}

void require_text(std::string_view text, const std::string& name) {
  if (const std::optional<std::string> why = describe_non_text(text))
    throw std::runtime_error(name + " is not a text file " + *why);
}

}  // namespace aaren
