#pragma once
// Training-time augmentation of a classifier's cases (docs/DESIGN.md section 10), the three
// transforms the time-series classification literature tries first (Iwana and Uchida 2021, "An
// empirical survey of data augmentation for time series classification"): every time a case enters
// a training step it is drawn anew, so that the model never sees exactly the same case twice.
// Validation, test and prediction read the cases as they are.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/classify/labelled_series.hpp"

namespace aaren {

struct ClassifyAugmentation {
  bool slice = false;   // a window of kSliceFraction of the steps, stretched back over the whole case
  bool scale = false;   // each channel times 1 + N(0, kScaleSigma^2), one draw per channel
  bool jitter = false;  // each value plus N(0, kJitterSigma^2), in standardized units

  bool any() const { return slice || scale || jitter; }
  bool operator==(const ClassifyAugmentation&) const = default;
};

// The survey's settings (window slicing after Le Guennec et al. 2016).
inline constexpr double kJitterSigma = 0.03;
inline constexpr double kScaleSigma = 0.1;
inline constexpr double kSliceFraction = 0.9;

// "none", or the chosen transforms joined by commas in the order slice, scale, jitter.
std::string to_string(const ClassifyAugmentation& augmentation);

// Reads "none" or a comma-separated list of slice, scale and jitter (in any order). Throws
// std::invalid_argument naming the part it does not know or that repeats.
ClassifyAugmentation classify_augmentation_from_string(std::string_view text);

// Writes the augmented values of `series` ((length, channels) row-major) to x, applying slice, then
// scale, then jitter; `draw` alone decides the random numbers (the same draw, the same case on every
// platform). A missing value (NaN) stays missing; a slice spreads it to the steps read between it
// and its neighbours.
void augment_case(const LabelledSeries& series, int channels, const ClassifyAugmentation& augmentation,
                  std::uint64_t draw, float* x);

// The draw for one case in one epoch: the run's seed, the case's index and how many times the case
// has been drawn before, mixed so that nearby inputs give unrelated draws (splitmix64).
std::uint64_t augmentation_draw(std::uint64_t seed, std::uint64_t case_index, std::uint64_t times_drawn);

}  // namespace aaren
