#pragma once
// How many forecasting windows each part of a split holds for a look-back T and horizon H, and
// which lengths fit a data set: arithmetic on the split's row ranges, without reading or copying
// the data, so that a form can ask on every edit. prepare_forecast_data builds its windows from
// the same segments and refuses with the same PlanError, so the two cannot disagree.
#include <optional>
#include <span>

#include "core/data/split.hpp"
#include "core/planning/plan_error.hpp"

namespace aaren {

struct WindowCounts {
  int train = 0, validation = 0, test = 0;
  bool operator==(const WindowCounts&) const = default;
};

struct WindowLengths {
  int look_back = 0;  // T
  int horizon = 0;    // H
  bool operator==(const WindowLengths&) const = default;
};

// The rows the windows of a part may read: the training part itself; for validation and test the
// part with T rows before it, since their look-back reaches into the part before (the Informer
// convention), so every row of those parts is a target of some window.
RowRange window_segment(const ChronologicalSplit& parts, SplitPart part, int look_back);

// Why these lengths hold no window in some part, checked in the order prepare_forecast_data
// checks (lengths, then training, validation, test); nullopt when every part holds at least one.
std::optional<PlanProblem> window_problem(const ChronologicalSplit& parts, WindowLengths lengths);

// Throws PlanError with window_problem's problem.
void require_windows(const ChronologicalSplit& parts, WindowLengths lengths);

// The windows of each part; all zero when window_problem has a problem.
WindowCounts count_windows(const ChronologicalSplit& parts, WindowLengths lengths);

// The lengths tried, longest first, when the wanted ones do not fit: the paper's 96/96, then
// shorter ones for short series such as monthly data.
std::span<const WindowLengths> window_length_ladder();

// `wanted` when it fits, else the first of window_length_ladder() that fits; nullopt when none does.
std::optional<WindowLengths> fit_window_lengths(const ChronologicalSplit& parts, WindowLengths wanted);

}  // namespace aaren
