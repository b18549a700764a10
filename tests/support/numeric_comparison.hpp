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

// An element-wise tolerance: entry i passes when |got_i - expected_i| <= atol + rtol |expected_i|.
// Unlike an error relative to the whole tensor's scale, a small entry (a late output of a long
// sequence) is held to its own size.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

template <class T>
double max_abs(const std::vector<T>& x) {
  double largest = 0;
  for (const T& value : x) largest = std::max(largest, std::abs(double(value)));
  return largest;
}

// The worst entry, its error as a multiple of what it is allowed (<= 1 passes); allowed(i) gives
// entry i's allowance. A NaN or infinity counts as infinitely wrong unless the reference holds the
// same value (NaN-poisoned outputs a kernel failed to write are caught).
template <class G, class E, class Allowed>
Mismatch worst_against_allowance(const std::vector<G>& got, const std::vector<E>& expected, Allowed allowed) {
  constexpr double kInfinite = std::numeric_limits<double>::infinity();
  if (got.size() != expected.size()) return {kInfinite, -1, 0, 0};
  Mismatch worst;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = double(got[i]), e = double(expected[i]);
    double ratio;
    if (!std::isfinite(g) || !std::isfinite(e))
      ratio = (g == e || (std::isnan(g) && std::isnan(e))) ? 0.0 : kInfinite;
    else
      ratio = std::abs(g - e) / std::max(allowed(i), std::numeric_limits<double>::min());
    if (ratio > worst.error || worst.index < 0) worst = {ratio, long(i), g, e};
  }
  return worst;
}

template <class G, class E>
Mismatch worst_against_tolerance(const std::vector<G>& got, const std::vector<E>& expected, Tolerance tolerance) {
  return worst_against_allowance(got, expected, [&](std::size_t i) {
    return tolerance.atol + tolerance.rtol * std::abs(double(expected[i]));
  });
}

// Per row of row_length entries: entry i passes when |got_i - expected_i| <= atol + rtol m_row
// (+ row_noise[row], when given), m_row the largest |expected| of its row (a row of a matrix whose
// entries share one rounding scale, such as one token's output vector).
template <class G, class E>
Mismatch worst_against_row_tolerance(const std::vector<G>& got, const std::vector<E>& expected,
                                     std::size_t row_length, Tolerance tolerance,
                                     const std::vector<double>& row_noise = {}) {
  std::vector<double> row_max(row_length > 0 ? (expected.size() + row_length - 1) / row_length : 0, 0.0);
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (std::isfinite(double(expected[i])))
      row_max[i / row_length] = std::max(row_max[i / row_length], std::abs(double(expected[i])));
  return worst_against_allowance(got, expected, [&](std::size_t i) {
    return tolerance.atol + tolerance.rtol * row_max[i / row_length] +
           (row_noise.empty() ? 0.0 : row_noise[i / row_length]);
  });
}

inline QByteArray describe(const QByteArray& what, const Mismatch& m, Tolerance tolerance) {
  return what + ": worst entry " + QByteArray::number(qlonglong(m.index)) + " is off by " +
         QByteArray::number(m.error, 'g', 3) + " times its allowance (got " + QByteArray::number(m.got, 'g', 9) +
         ", expected " + QByteArray::number(m.expected, 'g', 9) + "; atol " +
         QByteArray::number(tolerance.atol, 'g', 3) + ", rtol " + QByteArray::number(tolerance.rtol, 'g', 3) + ")";
}
