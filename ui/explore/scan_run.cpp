#include "ui/explore/scan_run.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace aaren::ui {

namespace {

const std::vector<ScanCombine> kNoCombines;

std::vector<int> merged(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

ScanRun::ScanRun(const ExploreInputs& inputs, ScanMethod method) : scores_(inputs.scores) {
  StateArray<float> states = StateArray<float>::from_tokens(inputs.scores, inputs.values, inputs.dv);
  inclusive_scan(states, method, &trace_);

  // Every combine of a step reads the states from before the step (prefix_scan.cpp), so the
  // token lists are merged from the previous step's lists.
  const int n = tokens();
  held_.resize(trace_.steps.size() + 1);
  held_[0].resize(std::size_t(n));
  for (int i = 0; i < n; ++i) held_[0][std::size_t(i)] = {i};
  for (std::size_t step = 1; step < held_.size(); ++step) {
    held_[step] = held_[step - 1];
    for (const ScanCombine& c : trace_.steps[step - 1].combines)
      held_[step][std::size_t(c.right)] =
          merged(held_[step - 1][std::size_t(c.left)], held_[step - 1][std::size_t(c.right)]);
  }
}

const StateArray<float>& ScanRun::states(int step) const {
  return step == 0 ? trace_.initial : trace_.steps[std::size_t(step - 1)].states;
}

const std::vector<ScanCombine>& ScanRun::combines(int step) const {
  return step == 0 ? kNoCombines : trace_.steps[std::size_t(step - 1)].combines;
}

int ScanRun::offset(int step) const {
  const auto& list = combines(step);
  return list.empty() ? 0 : list.front().right - list.front().left;
}

const std::vector<int>& ScanRun::tokensHeld(int step, int position) const {
  return held_[std::size_t(step)][std::size_t(position)];
}

bool ScanRun::holdsPrefix(int step, int position) const {
  const std::vector<int>& held = tokensHeld(step, position);
  return int(held.size()) == position + 1 && held.front() == 0 && held.back() == position;
}

bool ScanRun::updatedIn(int step, int position) const {
  const auto& list = combines(step);
  return std::any_of(list.begin(), list.end(), [position](const ScanCombine& c) { return c.right == position; });
}

int ScanRun::rowHolding(int step, int position) const {
  for (int level = step; level > 0; --level)
    if (updatedIn(level, position)) return level;
  return 0;
}

bool ScanRun::holdsSegment(int step, int position) const {
  const std::vector<int>& held = tokensHeld(step, position);
  return held.empty() || held.back() - held.front() + 1 == int(held.size());
}

ScanCounts ScanRun::countsThrough(int step) const {
  ScanCounts counts;
  for (int k = 1; k <= step; ++k) {
    ++counts.depth;
    counts.work += long(combines(k).size());
  }
  return counts;
}

std::vector<float> ScanRun::outputs(int step) const {
  std::vector<float> out(std::size_t(tokens()) * std::size_t(dv()));
  states(step).write_outputs(out);
  return out;
}

std::vector<float> ScanRun::heldWeights(int step, int position) const {
  const StateArray<float>& s = states(step);
  const float m = s.m[std::size_t(position)];
  const float u = s.u[std::size_t(position)];
  std::vector<float> weights;
  for (int token : tokensHeld(step, position)) weights.push_back(std::exp(scores_[std::size_t(token)] - m) / u);
  return weights;
}

std::vector<int> ScanRun::incompletePrefixes() const {
  std::vector<int> positions;
  for (int i = 0; i < tokens(); ++i)
    if (!holdsPrefix(stepCount(), i)) positions.push_back(i);
  return positions;
}

}  // namespace aaren::ui
