#pragma once
// Uniform (and normal) numbers from a seed that are the same on every platform: the engine is
// specified by the standard, the distributions are not, so the draws from 53 bits are written here.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace aaren {

class SeededUniform {
 public:
  explicit SeededUniform(std::uint64_t seed) : engine_(seed) {}
  double operator()(double low, double high) { return low + (high - low) * double(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

// A standard normal draw from two uniform ones (Box-Muller): std::normal_distribution's algorithm
// is left open by the standard too. The first draw starts at 2^-53, so its logarithm is finite.
inline double standard_normal(SeededUniform& uniform) {
  const double radius = std::sqrt(-2.0 * std::log(uniform(0x1.0p-53, 1.0)));
  return radius * std::cos(2.0 * std::numbers::pi * uniform(0.0, 1.0));
}

}  // namespace aaren
