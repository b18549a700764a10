#pragma once
// Uniform numbers from a seed that are the same on every platform: the engine is specified by the
// standard, the distributions are not, so the draw from 53 bits is written here.
#include <cstdint>
#include <random>

namespace aaren::rl {

class SeededUniform {
 public:
  explicit SeededUniform(std::uint64_t seed) : engine_(seed) {}
  double operator()(double low, double high) { return low + (high - low) * double(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace aaren::rl
