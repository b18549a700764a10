#include "ui/explore/linear_run.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "core/attention/linear_attention.hpp"
#include "core/attention/multi_query.hpp"

namespace aaren::ui {

namespace {

constexpr double kQueryKeySpread = 0.5;

Matrix<double> drawn(int rows, int cols, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, kQueryKeySpread);
  Matrix<double> m(rows, cols);
  for (double& x : m.data) x = normal(engine);
  return m;
}

Matrix<double> firstRows(const Matrix<double>& m, int rows) {
  Matrix<double> out(rows, m.cols);
  std::copy_n(m.data.begin(), std::size_t(rows) * std::size_t(m.cols), out.data.begin());
  return out;
}

}  // namespace

LinearRun::LinearRun(const ExploreInputs& inputs, const FeatureMapOptions& map, int keyDim, unsigned drawSeed)
    : valueDim_(inputs.dv), keyDim_(keyDim) {
  if (keyDim < 1) throw std::invalid_argument("queries and keys of " + std::to_string(keyDim) + " numbers");
  const int n = inputs.tokens();
  // Queries and keys from one stream, so that a longer input keeps the first tokens' draws.
  const Matrix<double> qk = drawn(2 * n, keyDim, drawSeed);
  q_ = Matrix<double>(n, keyDim);
  k_ = Matrix<double>(n, keyDim);
  Matrix<double>& q = q_;
  Matrix<double>& k = k_;
  Matrix<double> v(n, valueDim_);
  for (int i = 0; i < n; ++i) {
    std::copy_n(qk.row(2 * i).begin(), keyDim, q.row(i).begin());
    std::copy_n(qk.row(2 * i + 1).begin(), keyDim, k.row(i).begin());
    for (int c = 0; c < valueDim_; ++c) v(i, c) = double(inputs.value(i)[c]);
  }
  // The features exactly as defined (no shift): the numbers drawn are those of the formulas.
  const FeatureMap phi(map, keyDim);
  const Matrix<double> phiQ = phi.unshifted(q), phiK = phi.unshifted(k);
  features_ = phi.output_dim();
  LinearAttentionState<double> state(features_, valueDim_);
  AttentionOptions exact;
  exact.method = AttentionMethod::conventional;
  frames_.reserve(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    LinearTokenFrame f;
    f.phiQ.assign(phiQ.row(i).begin(), phiQ.row(i).end());
    f.phiK.assign(phiK.row(i).begin(), phiK.row(i).end());
    f.y.assign(std::size_t(valueDim_), 0.0);
    state.step(f.y, f.phiQ, f.phiK, v.row(i));
    f.s.assign(state.memory().begin(), state.memory().end());
    f.z.assign(state.normalizer().begin(), state.normalizer().end());
    f.numerator.assign(std::size_t(valueDim_), 0.0);
    f.denominator = kLinearAttentionEps;
    for (int a = 0; a < features_; ++a) {
      f.denominator += f.phiQ[std::size_t(a)] * f.z[std::size_t(a)];
      for (int c = 0; c < valueDim_; ++c)
        f.numerator[std::size_t(c)] += f.phiQ[std::size_t(a)] * f.s[std::size_t(a * valueDim_ + c)];
    }
    Matrix<double> query(1, keyDim);
    std::copy_n(q.row(i).begin(), keyDim, query.row(0).begin());
    const Matrix<double> soft = attend_queries(query, firstRows(k, i + 1), firstRows(v, i + 1), false, exact);
    f.softmax.assign(soft.data.begin(), soft.data.end());
    for (int c = 0; c < valueDim_; ++c) f.error = std::max(f.error, std::abs(f.y[std::size_t(c)] - f.softmax[std::size_t(c)]));
    for (const double x : f.s) largestMemory_ = std::max(largestMemory_, std::abs(x));
    for (const double x : f.z) largestMemory_ = std::max(largestMemory_, std::abs(x));
    frames_.push_back(std::move(f));
  }
}

double LinearRun::meanError() const {
  if (frames_.empty()) return 0;
  double sum = 0;
  for (const LinearTokenFrame& f : frames_) sum += f.error;
  return sum / double(frames_.size());
}

std::vector<FavorPoint> favorApproximation(const ExploreInputs& inputs, int keyDim, unsigned drawSeed,
                                           const std::vector<int>& featureCounts, int draws) {
  std::vector<FavorPoint> points;
  for (const int m : featureCounts) {
    FavorPoint point{m, 0.0};
    for (int draw = 0; draw < draws; ++draw) {
      FeatureMapOptions favor;
      favor.kind = FeatureMapKind::favor;
      favor.features = m;
      favor.seed = std::uint64_t(draw + 1);
      point.meanError += LinearRun(inputs, favor, keyDim, drawSeed).meanError() / double(draws);
    }
    points.push_back(point);
  }
  return points;
}

}  // namespace aaren::ui
