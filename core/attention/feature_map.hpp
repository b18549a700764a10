#pragma once
// The feature maps phi of linear attention (Katharopoulos et al. 2020, "Transformers are RNNs"):
// sim(q, k) = phi(q) . phi(k) takes the place of softmax's exp(q . k). elu(x) + 1, the paper's, and
// relu keep the d features of the input; FAVOR+ (Choromanski et al. 2021) draws M positive random
// features phi(x)_j = exp(w_j . x - |x|^2 / 2) / sqrt(M), w_j ~ N(0, I), whose product has exactly
// exp(q . k) as its expectation, so that its error against softmax falls as M grows.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/matrix.hpp"

namespace aaren {

enum class FeatureMapKind { elu_plus_one, relu, favor };

std::string_view to_string(FeatureMapKind kind);                          // "elu1", "relu", "favor"
std::optional<FeatureMapKind> feature_map_from_string(std::string_view name);
std::string feature_map_names();  // "elu1, relu, favor" for messages and --help

struct FeatureMapOptions {
  FeatureMapKind kind = FeatureMapKind::elu_plus_one;
  int features = 64;       // FAVOR+ only: M, the number of random features
  std::uint64_t seed = 1;  // FAVOR+ only: the draw of the w_j
  bool orthogonal = true;  // FAVOR+ only: w_j orthogonal within each block of d (lower variance)
};

class FeatureMap {
 public:
  // Throws std::invalid_argument for d < 1, or for FAVOR+ with M < 1.
  FeatureMap(const FeatureMapOptions& options, int d);

  int input_dim() const { return d_; }
  int output_dim() const;  // d, or M for FAVOR+
  const FeatureMapOptions& options() const { return options_; }

  // phi of every row of x (N, d) -> (N, output_dim()). FAVOR+ subtracts from each query row's
  // exponents their largest, and from every key row's exponents the largest over all keys: the first
  // scales a query's numerator and denominator alike, the second every term alike, so both cancel
  // in linear attention's ratio while no exp overflows.
  template <class T>
  Matrix<T> queries(const Matrix<T>& x) const;
  template <class T>
  Matrix<T> keys(const Matrix<T>& x) const;
  // phi exactly as defined, without a shift: for FAVOR+, E[phi(q) . phi(k)] = exp(q . k). exp may
  // overflow for large inputs, which the shifted forms avoid.
  template <class T>
  Matrix<T> unshifted(const Matrix<T>& x) const;

  // The gradient through phi, dx (N, d) from dphi (N, output_dim()), the inputs x and the features
  // phi they gave, in any of the three forms above:
  //   elu + 1   dx = dphi min(phi, 1)            (slope 1 above 0, exp(x) = phi below)
  //   relu      dx = dphi [x > 0]
  //   FAVOR+    dx_i = sum_j dphi_ij phi_ij (w_j - x_i)
  // A shift is held constant. It scales a query's numerator and denominator alike (or every term
  // alike), so the attention's output does not depend on it where eps is 0, and with eps = 1e-6 it
  // moves the output by about eps over the denominator. Throws std::invalid_argument when the shapes
  // do not fit.
  template <class T>
  Matrix<T> backward(const Matrix<T>& dphi, const Matrix<T>& x, const Matrix<T>& phi) const;

 private:
  enum class Shift { none, perRow, shared };
  template <class T>
  Matrix<T> apply(const Matrix<T>& x, Shift shift) const;

  FeatureMapOptions options_;
  int d_;
  Matrix<double> w_;  // (M, d), FAVOR+ only
};

}  // namespace aaren
