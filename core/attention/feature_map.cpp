#include "core/attention/feature_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace aaren {

namespace {

// Rows of w drawn from N(0, I); with `orthogonal`, each block of d rows is made orthonormal (Gram-
// Schmidt) and each row then given the length of an independent Gaussian vector, so that every row
// keeps the distribution of N(0, I) while the rows of a block share no direction (Choromanski et
// al. 2021, section 2.4).
Matrix<double> drawDirections(int m, int d, std::uint64_t seed, bool orthogonal) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Matrix<double> w(m, d);
  for (double& x : w.data) x = normal(engine);
  if (!orthogonal) return w;
  for (int start = 0; start < m; start += d) {
    const int end = std::min(m, start + d);
    for (int i = start; i < end; ++i) {
      for (int j = start; j < i; ++j) {
        double dot = 0;
        for (int c = 0; c < d; ++c) dot += w(i, c) * w(j, c);
        for (int c = 0; c < d; ++c) w(i, c) -= dot * w(j, c);
      }
      double norm = 0;
      for (int c = 0; c < d; ++c) norm += w(i, c) * w(i, c);
      norm = std::sqrt(norm);
      for (int c = 0; c < d; ++c) w(i, c) /= norm;
    }
    for (int i = start; i < end; ++i) {
      double length = 0;
      for (int c = 0; c < d; ++c) {
        const double g = normal(engine);
        length += g * g;
      }
      length = std::sqrt(length);
      for (int c = 0; c < d; ++c) w(i, c) *= length;
    }
  }
  return w;
}

}  // namespace

std::string_view to_string(FeatureMapKind kind) {
  switch (kind) {
    case FeatureMapKind::elu_plus_one: return "elu1";
    case FeatureMapKind::relu: return "relu";
    case FeatureMapKind::favor: return "favor";
  }
  return "elu1";
}

std::optional<FeatureMapKind> feature_map_from_string(std::string_view name) {
  for (const FeatureMapKind kind : {FeatureMapKind::elu_plus_one, FeatureMapKind::relu, FeatureMapKind::favor})
    if (name == to_string(kind)) return kind;
  return std::nullopt;
}

std::string feature_map_names() { return "elu1, relu, favor"; }

FeatureMap::FeatureMap(const FeatureMapOptions& options, int d) : options_(options), d_(d) {
  if (d < 1) throw std::invalid_argument("a feature map needs inputs of at least 1 dimension, not " + std::to_string(d));
  if (options.kind == FeatureMapKind::favor) {
    if (options.features < 1)
      throw std::invalid_argument("FAVOR+ needs at least 1 random feature, not " + std::to_string(options.features));
    w_ = drawDirections(options.features, d, options.seed, options.orthogonal);
  }
}

int FeatureMap::output_dim() const { return options_.kind == FeatureMapKind::favor ? options_.features : d_; }

template <class T>
Matrix<T> FeatureMap::queries(const Matrix<T>& x) const {
  return apply(x, Shift::perRow);
}

template <class T>
Matrix<T> FeatureMap::keys(const Matrix<T>& x) const {
  return apply(x, Shift::shared);
}

template <class T>
Matrix<T> FeatureMap::unshifted(const Matrix<T>& x) const {
  return apply(x, Shift::none);
}

template <class T>
Matrix<T> FeatureMap::apply(const Matrix<T>& x, Shift shift) const {
  if (x.cols != d_)
    throw std::invalid_argument("the feature map takes rows of " + std::to_string(d_) + " numbers, not " +
                                std::to_string(x.cols));
  Matrix<T> phi(x.rows, output_dim());
  if (options_.kind != FeatureMapKind::favor) {
    const bool elu = options_.kind == FeatureMapKind::elu_plus_one;
    for (std::size_t i = 0; i < x.data.size(); ++i) {
      const T v = x.data[i];
      phi.data[i] = elu ? (v > T(0) ? v + T(1) : std::exp(v)) : std::max(v, T(0));
    }
    return phi;
  }
  // Exponents w_j . x - |x|^2 / 2 in double, then shifted and exponentiated in T.
  const int m = output_dim();
  std::vector<double> exponents(std::size_t(x.rows) * std::size_t(m));
  double largest = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < x.rows; ++i) {
    double half_square = 0;
    for (int c = 0; c < d_; ++c) half_square += 0.5 * double(x(i, c)) * double(x(i, c));
    for (int j = 0; j < m; ++j) {
      double dot = 0;
      for (int c = 0; c < d_; ++c) dot += w_(j, c) * double(x(i, c));
      exponents[std::size_t(i) * std::size_t(m) + std::size_t(j)] = dot - half_square;
      largest = std::max(largest, dot - half_square);
    }
  }
  const double scale = 1.0 / std::sqrt(double(m));
  for (int i = 0; i < x.rows; ++i) {
    const double* row = exponents.data() + std::size_t(i) * std::size_t(m);
    const double by = shift == Shift::perRow ? *std::max_element(row, row + m) : shift == Shift::shared ? largest : 0.0;
    for (int j = 0; j < m; ++j) phi(i, j) = T(std::exp(row[j] - by) * scale);
  }
  return phi;
}

template <class T>
Matrix<T> FeatureMap::backward(const Matrix<T>& dphi, const Matrix<T>& x, const Matrix<T>& phi) const {
  const int m = output_dim();
  if (x.cols != d_ || dphi.cols != m || phi.cols != m || dphi.rows != x.rows || phi.rows != x.rows)
    throw std::invalid_argument("the feature map's gradient takes inputs (N, " + std::to_string(d_) + ") and features (N, " +
                                std::to_string(m) + "), not (" + std::to_string(x.rows) + ", " + std::to_string(x.cols) +
                                "), (" + std::to_string(phi.rows) + ", " + std::to_string(phi.cols) + ") and gradient (" +
                                std::to_string(dphi.rows) + ", " + std::to_string(dphi.cols) + ")");
  Matrix<T> dx(x.rows, d_);
  if (options_.kind == FeatureMapKind::elu_plus_one) {
    for (std::size_t i = 0; i < dx.data.size(); ++i) dx.data[i] = dphi.data[i] * std::min(phi.data[i], T(1));
    return dx;
  }
  if (options_.kind == FeatureMapKind::relu) {
    for (std::size_t i = 0; i < dx.data.size(); ++i) dx.data[i] = x.data[i] > T(0) ? dphi.data[i] : T(0);
    return dx;
  }
  for (int i = 0; i < x.rows; ++i) {
    double total = 0;  // sum_j dphi_ij phi_ij
    std::vector<double> dx_row(std::size_t(d_), 0.0);
    for (int j = 0; j < m; ++j) {
      const double weight = double(dphi(i, j)) * double(phi(i, j));
      total += weight;
      for (int c = 0; c < d_; ++c) dx_row[std::size_t(c)] += weight * w_(j, c);
    }
    for (int c = 0; c < d_; ++c) dx(i, c) = T(dx_row[std::size_t(c)] - total * double(x(i, c)));
  }
  return dx;
}

template Matrix<float> FeatureMap::queries(const Matrix<float>&) const;
template Matrix<double> FeatureMap::queries(const Matrix<double>&) const;
template Matrix<float> FeatureMap::keys(const Matrix<float>&) const;
template Matrix<double> FeatureMap::keys(const Matrix<double>&) const;
template Matrix<float> FeatureMap::unshifted(const Matrix<float>&) const;
template Matrix<double> FeatureMap::unshifted(const Matrix<double>&) const;
template Matrix<float> FeatureMap::backward(const Matrix<float>&, const Matrix<float>&, const Matrix<float>&) const;
template Matrix<double> FeatureMap::backward(const Matrix<double>&, const Matrix<double>&, const Matrix<double>&) const;

}  // namespace aaren
