// aaren baseline --task classify: the field's yardsticks alone (core/classify/nearest_neighbour.hpp).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "app/baseline_table.hpp"
#include "app/commands.hpp"
#include "core/classify/labelled_series.hpp"
#include "core/classify/nearest_neighbour.hpp"

namespace aaren::cli {

namespace {

const char* const kBaselineText = R"text(the yardsticks a classifier is measured against

Reads TRAIN and TEST (UEA/UCR .ts files or classification CSVs with the same
classes and channels) and prints the test accuracy of the majority class, the
1-nearest-neighbour classifier with Euclidean distance, and with dynamic time
warping: over the full window, and over the Sakoe-Chiba window chosen by
leave-one-out on TRAIN (0% to 100% of the longest case in steps of 1%, the
narrowest of the best), as the UCR archive reports "DTW(w)". Several
dimensions share one warping path. --scaling auto z-normalises univariate
cases (as the UCR archive does) and uses multivariate ones as given (as the
UEA archive's published accuracies do).)text";

struct BaselineOptions {
  std::string train, test, scaling = "auto";
};

int print_baselines(const BaselineOptions& o) {
  const LabelledSeriesSet train = read_labelled_series(o.train), test = read_labelled_series(o.test);
  const auto start = std::chrono::steady_clock::now();
  const NeighbourBaselines b = neighbour_baselines(train, test, *neighbour_scaling_from_string(o.scaling));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %zu training cases, %ld test cases, %zu classes, up to %d steps of %d dimension%s\n",
              train.problem_name.c_str(), train.series.size(), b.test_cases, train.class_names.size(),
              std::max(train.max_length(), test.max_length()), train.dims, train.dims == 1 ? "" : "s");
  print_baseline_table(b, train.class_names);
  std::printf("computed in %.2f s\n", seconds);
  return 0;
}

}  // namespace

void add_classify_baseline_command(CommandLine& cli) {
  auto o = std::make_shared<BaselineOptions>();
  CLI::App* app = cli.add_command(cli.root(), "baseline", kBaselineText, [o] { return print_baselines(*o); });
  add_task_option(app, cli.task());
  add_text(app, "--data", o->train, "TRAIN", "labelled series the neighbours come from")->required()->group(kDataGroup);
  add_text(app, "--test", o->test, "TEST", "labelled series to report on (same classes and channels)")
      ->required()
      ->group(kDataGroup);
  add_choice(app, "--scaling", o->scaling, {"auto", "per-series", "none"},
             "z-normalise each case per dimension: auto for univariate cases only")
      ->group(kOptionsGroup);
}

}  // namespace aaren::cli
