#include "core/planning/window_plan.hpp"

#include <array>

namespace aaren {

namespace {

constexpr std::array<WindowLengths, 13> kLadder = {{{96, 96},
                                                    {96, 48},
                                                    {96, 24},
                                                    {48, 24},
                                                    {48, 12},
                                                    {36, 12},
                                                    {24, 12},
                                                    {24, 6},
                                                    {12, 6},
                                                    {12, 3},
                                                    {6, 3},
                                                    {4, 2},
                                                    {2, 1}}};

const RowRange& rows_of(const ChronologicalSplit& parts, SplitPart part) {
  switch (part) {
    case SplitPart::validation: return parts.validation;
    case SplitPart::test: return parts.test;
    case SplitPart::training: break;
  }
  return parts.train;
}

int windows_in(const RowRange& segment, WindowLengths lengths) {
  return segment.size() - lengths.look_back - lengths.horizon + 1;
}

}  // namespace

RowRange window_segment(const ChronologicalSplit& parts, SplitPart part, int look_back) {
  const RowRange& rows = rows_of(parts, part);
  if (part == SplitPart::training) return rows;
  return {rows.begin - look_back, rows.end};
}

std::optional<PlanProblem> window_problem(const ChronologicalSplit& parts, WindowLengths lengths) {
  const int t = lengths.look_back, h = lengths.horizon;
  if (t < 1 || h < 1) return PlanProblem{PlanErrorCode::window_length_below_one, SplitPart::training, 0, t, h, 1};
  for (const SplitPart part : {SplitPart::training, SplitPart::validation, SplitPart::test}) {
    const int rows = rows_of(parts, part).size();
    const int needed = part == SplitPart::training ? t + h : h;
    if (rows < needed) return PlanProblem{PlanErrorCode::too_few_rows_for_windows, part, rows, t, h, needed};
  }
  return std::nullopt;
}

void require_windows(const ChronologicalSplit& parts, WindowLengths lengths) {
  if (const std::optional<PlanProblem> problem = window_problem(parts, lengths)) throw PlanError(*problem);
}

WindowCounts count_windows(const ChronologicalSplit& parts, WindowLengths lengths) {
  if (window_problem(parts, lengths)) return {};
  const int t = lengths.look_back;
  return {windows_in(window_segment(parts, SplitPart::training, t), lengths),
          windows_in(window_segment(parts, SplitPart::validation, t), lengths),
          windows_in(window_segment(parts, SplitPart::test, t), lengths)};
}

std::span<const WindowLengths> window_length_ladder() { return kLadder; }

std::optional<WindowLengths> fit_window_lengths(const ChronologicalSplit& parts, WindowLengths wanted) {
  if (!window_problem(parts, wanted)) return wanted;
  for (const WindowLengths& lengths : kLadder)
    if (!window_problem(parts, lengths)) return lengths;
  return std::nullopt;
}

}  // namespace aaren
