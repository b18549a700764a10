#include "core/classify/augmentation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/util/seeded_uniform.hpp"

namespace aaren {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Step t of `length` reads position start + t (window - 1) / (length - 1) of the case, linearly
// between its neighbours.
void slice_into(const LabelledSeries& series, int channels, SeededUniform& uniform, float* x) {
  const int length = series.length;
  const int window = std::max(1, int(std::lround(kSliceFraction * length)));
  const int start = std::min(length - window, int(uniform(0.0, double(length - window + 1))));
  for (int t = 0; t < length; ++t) {
    const double at = length > 1 ? start + double(t) * (window - 1) / (length - 1) : start;
    const int left = std::min(int(at), length - 1), right = std::min(left + 1, length - 1);
    const double weight = at - left;
    for (int c = 0; c < channels; ++c) {
      const double a = series.values[std::size_t(left) * channels + c];
      const double b = series.values[std::size_t(right) * channels + c];
      x[std::size_t(t) * channels + c] = float(weight == 0 ? a : a + weight * (b - a));
    }
  }
}

}  // namespace

std::string to_string(const ClassifyAugmentation& a) {
  std::string text;
  for (const auto& [on, name] : {std::pair{a.slice, "slice"}, {a.scale, "scale"}, {a.jitter, "jitter"}}) {
    if (!on) continue;
    if (!text.empty()) text += ',';
    text += name;
  }
  return text.empty() ? "none" : text;
}

ClassifyAugmentation classify_augmentation_from_string(std::string_view text) {
  ClassifyAugmentation a;
  if (text == "none") return a;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    const std::string_view part = text.substr(begin, end - begin);
    bool* flag = part == "slice" ? &a.slice : part == "scale" ? &a.scale : part == "jitter" ? &a.jitter : nullptr;
    if (!flag)
      throw std::invalid_argument("augmentation '" + std::string(part) +
                                  "' is not one of slice, scale and jitter (or none alone)");
    if (*flag) throw std::invalid_argument("augmentation '" + std::string(part) + "' is named twice");
    *flag = true;
    begin = end + 1;
  }
  return a;
}

std::uint64_t augmentation_draw(std::uint64_t seed, std::uint64_t case_index, std::uint64_t times_drawn) {
  return splitmix64(splitmix64(splitmix64(seed) ^ case_index) ^ times_drawn);
}

void augment_case(const LabelledSeries& series, int channels, const ClassifyAugmentation& a, std::uint64_t draw,
                  float* x) {
  SeededUniform uniform(draw);
  const std::size_t values = std::size_t(series.length) * std::size_t(channels);
  if (a.slice) slice_into(series, channels, uniform, x);
  else std::copy(series.values.begin(), series.values.begin() + long(values), x);
  if (a.scale)
    for (int c = 0; c < channels; ++c) {
      const float factor = float(1.0 + kScaleSigma * standard_normal(uniform));
      for (std::size_t v = std::size_t(c); v < values; v += std::size_t(channels)) x[v] *= factor;
    }
  if (a.jitter)
    for (std::size_t v = 0; v < values; ++v) x[v] += float(kJitterSigma * standard_normal(uniform));
}

}  // namespace aaren
