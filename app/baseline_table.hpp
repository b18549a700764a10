#pragma once
// The yardsticks' test accuracies as `aaren baseline` and `aaren train --task classify` print them.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/classify/nearest_neighbour.hpp"

namespace aaren::cli {

inline void print_baseline_table(const NeighbourBaselines& b, const std::vector<std::string>& class_names) {
  char majority[128], window[64];
  std::snprintf(majority, sizeof majority, "majority class ('%s')", class_names.at(std::size_t(b.majority_class)).c_str());
  std::snprintf(window, sizeof window, "1-NN DTW, window %d steps (%g%%)", b.window.window, b.window.percent);
  std::printf("test accuracy of the yardsticks (cases %s):\n", b.z_normalised ? "z-normalised" : "as given");
  const std::pair<const char*, double> rows[] = {
      {majority, b.majority}, {"1-NN Euclidean", b.euclidean}, {"1-NN DTW, full window", b.dtw_full}, {window, b.dtw_window}};
  for (const auto& [label, value] : rows) std::printf("  %-36s %8.4f\n", label, value);
  std::printf("  (the window's leave-one-out accuracy on TRAIN: %.4f)\n", b.window.loo_accuracy);
}

}  // namespace aaren::cli
