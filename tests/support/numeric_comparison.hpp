#pragma once
// Comparing a computed tensor with its reference: buffers in double precision, the worst entry
// by relative error or by error relative to the tensor's scale, and a message that names it.
#include <QByteArray>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using Buffer = std::vector<double>;

// Values a float holds exactly, so the float and double runs start from the same numbers.
inline Buffer random_buffer(std::mt19937& rng, long n, double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> dist(lo, hi);
  Buffer b(static_cast<std::size_t>(n));
  for (double& x : b) x = double(float(dist(rng)));
  return b;
}

template <class T>
std::vector<T> as(const Buffer& b) {
  return std::vector<T>(b.begin(), b.end());
}

template <class T>
Buffer to_double(const std::vector<T>& v) {
  return Buffer(v.begin(), v.end());
}

// Equal bit for bit (so NaN equals the same NaN and 0 differs from -0).
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i])) return false;
  return true;
}

struct Mismatch {
  double error = 0;
  long index = -1;
  double got = 0;
  double expected = 0;
};

inline double relative_error(double a, double b) { return std::abs(a - b) / std::max(1e-8, std::abs(a) + std::abs(b)); }

// The entry with the largest relative error; a NaN counts as infinitely wrong.
inline Mismatch worst_relative_error(const Buffer& got, const Buffer& expected) {
  Mismatch worst;
  if (got.size() != expected.size()) return {std::numeric_limits<double>::infinity(), -1, 0, 0};
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = std::isnan(got[i]) ? std::numeric_limits<double>::infinity() : relative_error(got[i], expected[i]);
    if (e > worst.error || worst.index < 0) worst = {e, long(i), got[i], expected[i]};
  }
  return worst;
}

// The error of a whole tensor relative to its largest entry: float rounding is relative to the
// tensor's scale, not to entries that happen to be near zero.
inline Mismatch worst_error_relative_to_scale(const Buffer& got, const Buffer& expected) {
  double scale = 0;
  for (double x : expected) scale = std::max(scale, std::abs(x));
  Mismatch worst;
  if (got.size() != expected.size()) return {std::numeric_limits<double>::infinity(), -1, 0, 0};
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = std::isnan(got[i]) ? std::numeric_limits<double>::infinity()
                                        : std::abs(got[i] - expected[i]) / std::max(scale, 1e-30);
    if (e > worst.error || worst.index < 0) worst = {e, long(i), got[i], expected[i]};
  }
  return worst;
}

inline QByteArray describe(const QByteArray& what, const Mismatch& m, const char* got_name, const char* expected_name) {
  return what + ": worst error " + QByteArray::number(m.error, 'g', 3) + " at entry " +
         QByteArray::number(qlonglong(m.index)) + " (" + got_name + " " + QByteArray::number(m.got, 'g', 17) +
         ", " + expected_name + " " + QByteArray::number(m.expected, 'g', 17) + ")";
}
