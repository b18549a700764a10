#pragma once
// The field's yardsticks for classification (docs/DESIGN.md section 10): the majority class, the
// 1-nearest-neighbour classifier with Euclidean distance, and with dynamic time warping (DTW) under a
// Sakoe-Chiba window, either full or chosen by leave-one-out on TRAIN, as the UCR archive reports
// "DTW(w)".
//   series     a missing value is filled linearly from its neighbours in time (the nearest present
//              value at either end; a dimension with none at all becomes zeros); then, by default,
//              univariate cases are z-normalised (a constant case becomes zeros), as the UCR archive
//              does, and multivariate cases are used as given, as the UEA archive's published
//              accuracies are (z-normalising JapaneseVowels' dimensions takes 1-NN DTW from its
//              published 0.949 to 0.66)
//   cost       the squared difference summed over the dimensions at a pair of time steps: one
//              warping path for every dimension ("dependent" DTW); Euclidean is the cost summed
//              along the diagonal, cases of different lengths stretched linearly to the longer one
//   window     cells (i, j) with |i - j| <= max(w, |length_a - length_b|), so that cases of
//              different lengths always have a path; w >= the longer length is full DTW
//   ties       the nearest neighbour is the first in TRAIN's order among equal distances
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/classify/labelled_series.hpp"

namespace aaren {

// A case made ready for the distances above.
struct NeighbourSeries {
  int length = 0;
  std::vector<double> values;  // (length, dims), gaps filled, z-normalised when chosen
};

// automatic: per-series for one dimension, none for several (above).
enum class NeighbourScaling { automatic, per_series, none };
std::string_view to_string(NeighbourScaling scaling);  // "auto", "per-series", "none"
std::optional<NeighbourScaling> neighbour_scaling_from_string(std::string_view name);
bool z_normalises(NeighbourScaling scaling, int dims);

std::vector<NeighbourSeries> neighbour_series(const LabelledSeriesSet& set,
                                              NeighbourScaling scaling = NeighbourScaling::automatic);

inline constexpr double kNoAbandon = std::numeric_limits<double>::infinity();

// DTW between a and b within `window` (above). With `abandon_above` finite, returns +infinity as
// soon as every path must exceed it (early abandoning: never changes a distance below the bound).
// `path_width`, when given, receives the largest |i - j| along one optimal path (the smallest window
// that gives the same distance), or -1 when abandoned.
double dtw_distance(const NeighbourSeries& a, const NeighbourSeries& b, int dims, int window,
                    double abandon_above = kNoAbandon, int* path_width = nullptr);

// The Euclidean distance, squared (no square root: the neighbour is the same).
double squared_euclidean(const NeighbourSeries& a, const NeighbourSeries& b, int dims);

// LB_Keogh: a lower bound of dtw_distance(query, candidate, dims, window) for cases of equal length,
// from the candidate's envelope (the running max and min over +-window of each dimension).
struct KeoghEnvelope {
  std::vector<double> upper, lower;  // (length, dims)
};
KeoghEnvelope keogh_envelope(const NeighbourSeries& candidate, int dims, int window);
double lb_keogh(const NeighbourSeries& query, const KeoghEnvelope& envelope, int dims,
                double abandon_above = kNoAbandon);

// The window searched for DTW(w): the windows from 0% to 100% of the longest TRAIN case in steps of
// 1%, each as whole steps (round(r * length / 100)), distinct ones only; the smallest window whose
// leave-one-out accuracy on TRAIN is the best. Needs at least two labelled cases.
struct WindowChoice {
  int window = 0;                 // in time steps
  double percent = 0;             // of the longest case
  double loo_accuracy = 0;        // on TRAIN
};
WindowChoice choose_dtw_window(const std::vector<NeighbourSeries>& train, const std::vector<int>& labels, int dims);

// Accuracy of each yardstick on TEST, and what it was chosen with.
struct NeighbourBaselines {
  double majority = 0, euclidean = 0, dtw_full = 0, dtw_window = 0;
  int majority_class = -1;  // its index in the class names
  bool z_normalised = false;
  WindowChoice window;
  long test_cases = 0;
};

// The DTW cells the yardsticks cost at most, before pruning: the window search's leave-one-out over
// TRAIN and the classification of TEST, (train) x (train + test) x longest^2. Pruning skips most of
// them (300 + 30 cases of 500 steps, 2.5e10 cells: 10 s on two cores), but not on every data set,
// so a training run computes them only up to kMostYardstickCells and leaves larger ones to `aaren
// baseline`.
double yardstick_cells(long train_cases, long test_cases, int longest);
inline constexpr double kMostYardstickCells = 4e10;

// TRAIN and TEST must be labelled with the same class names and have the same dims. Throws
// std::invalid_argument naming the file otherwise.
NeighbourBaselines neighbour_baselines(const LabelledSeriesSet& train, const LabelledSeriesSet& test,
                                      NeighbourScaling scaling = NeighbourScaling::automatic);

// The label of each test case's nearest TRAIN case, by Euclidean distance or by DTW within `window`.
std::vector<int> nearest_labels_euclidean(const std::vector<NeighbourSeries>& train, const std::vector<int>& labels,
                                          const std::vector<NeighbourSeries>& test, int dims);
std::vector<int> nearest_labels_dtw(const std::vector<NeighbourSeries>& train, const std::vector<int>& labels,
                                    const std::vector<NeighbourSeries>& test, int dims, int window);

}  // namespace aaren
