#pragma once
// Linear attention (Katharopoulos et al. 2020) on the Explore page's tokens, one token at a time:
// every token brings a query and a key of d_k numbers (drawn at random, a seed apart) and the page's
// value; the run records core's recurrent state (S, z) after each token, the output it reads for the
// token's query, and exact softmax attention of the same query over the same tokens, so that the
// error of the approximation can be drawn per token. Queries and keys are drawn small (entries of
// spread 0.5), where softmax is neither flat nor one-hot and FAVOR+'s variance stays modest.
#include <vector>

#include "core/attention/feature_map.hpp"
#include "core/util/matrix.hpp"
#include "ui/explore/explore_inputs.hpp"

namespace aaren::ui {

struct LinearTokenFrame {
  std::vector<double> phiQ, phiK;  // (m) the token's features
  std::vector<double> s;           // (m, dv) S after the token
  std::vector<double> z;           // (m) z after the token
  std::vector<double> numerator;   // (dv) phi(q)^T S
  double denominator = 0;          // phi(q)^T z + eps
  std::vector<double> y;           // (dv) linear attention's output, as core's state reads it
  std::vector<double> softmax;     // (dv) exact softmax attention of the token's query
  double error = 0;                // max over dv of |y - softmax|
};

class LinearRun {
 public:
  LinearRun() = default;
  // Throws std::invalid_argument for d_k < 1 or a feature map core refuses.
  LinearRun(const ExploreInputs& inputs, const FeatureMapOptions& map, int keyDim, unsigned drawSeed);

  int tokens() const { return int(frames_.size()); }
  int features() const { return features_; }  // m: d_k, or M for FAVOR+
  int valueDim() const { return valueDim_; }
  int keyDim() const { return keyDim_; }
  // The tokens' queries and keys (N, d_k), as drawn.
  const Matrix<double>& queries() const { return q_; }
  const Matrix<double>& keys() const { return k_; }
  const LinearTokenFrame& frame(int token) const { return frames_[std::size_t(token - 1)]; }  // 1-based
  double meanError() const;  // over every token
  double largestMemory() const { return largestMemory_; }  // the largest |number| S or z holds, over the run
  // The numbers S and z hold (m dv + m), and a KV cache of the same tokens (N (d_k + dv)).
  long stateNumbers() const { return long(features_) * (valueDim_ + 1); }
  long cacheNumbers(int token) const { return long(token) * (keyDim_ + valueDim_); }

 private:
  int features_ = 0, valueDim_ = 0, keyDim_ = 0;
  double largestMemory_ = 0;
  Matrix<double> q_, k_;
  std::vector<LinearTokenFrame> frames_;
};

// FAVOR+ against softmax on the same tokens as M grows: the mean error over the tokens, averaged
// over `draws` draws of the random features, for each M.
struct FavorPoint {
  int features = 0;
  double meanError = 0;
};
std::vector<FavorPoint> favorApproximation(const ExploreInputs& inputs, int keyDim, unsigned drawSeed,
                                           const std::vector<int>& featureCounts, int draws);

}  // namespace aaren::ui
