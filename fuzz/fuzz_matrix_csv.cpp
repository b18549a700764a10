// The matrix reader of `aaren attention` (core/io/matrix_csv.hpp) on arbitrary text. Refusing the
// text is fine; an accepted matrix must be rectangular and finite, and must read back bit for bit
// from the text its numbers print as (the way `aaren attention --out` writes them).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/io/matrix_csv.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

std::string printed(const aaren::Matrix<double>& m) {
  std::string text;
  for (int r = 0; r < m.rows; ++r) {
    for (int c = 0; c < m.cols; ++c) {
      if (c > 0) text += ',';
      text += aaren::format_number(m(r, c));
    }
    text += '\n';
  }
  return text;
}

void check_matrix(const aaren::Matrix<double>& m, const std::string& source) {
  require(m.rows >= 0 && m.cols >= 0, "the sizes are not negative");
  require(m.data.size() == std::size_t(m.rows) * std::size_t(m.cols), "the values fill (rows, cols)");
  require((m.rows == 0) == (m.cols == 0), "a matrix without rows has no columns, and the other way round");
  for (const double value : m.data) require(std::isfinite(value), "every value is finite");
  const aaren::Matrix<double> again = aaren::parse_matrix_csv(printed(m), source);
  require(again.rows == m.rows && again.cols == m.cols, "the printed matrix reads back with the same sizes");
  const auto same_bits = [](double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
  };
  require(std::equal(again.data.begin(), again.data.end(), m.data.begin(), m.data.end(), same_bits),
          "the printed matrix reads back bit for bit");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string source = "Q.csv";
  aaren::Matrix<double> m;
  if (aaren::fuzz::accepted([&] { m = aaren::parse_matrix_csv(text, source); }, source)) check_matrix(m, source);
  return 0;
}
