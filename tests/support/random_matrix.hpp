#pragma once
// A matrix of normal random numbers for the attention suites, the same for a seed on every run.
#include <cstdint>
#include <random>

#include "core/util/matrix.hpp"

inline aaren::Matrix<double> randomMatrix(int rows, int cols, std::uint64_t seed, double scale = 1.0) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, scale);
  aaren::Matrix<double> m(rows, cols);
  for (double& x : m.data) x = normal(engine);
  return m;
}
