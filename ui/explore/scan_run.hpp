#pragma once
// One prefix scan of the Explore page's inputs, recorded step by step by the core
// (inclusive_scan with a ScanTrace), with what the pictures need on top of the trace: which
// tokens every position holds after every step, and which prefixes never become complete (the
// paper's printed Algorithm 1 misses offset 1). Every number comes from the trace.
#include <vector>

#include "core/scan/prefix_scan.hpp"
#include "ui/explore/explore_inputs.hpp"

namespace aaren::ui {

class ScanRun {
 public:
  ScanRun() = default;
  ScanRun(const ExploreInputs& inputs, ScanMethod method);

  ScanMethod method() const { return trace_.method; }
  int tokens() const { return trace_.initial.n; }
  int dv() const { return trace_.initial.dv; }
  const std::vector<float>& scores() const { return scores_; }

  int stepCount() const { return int(trace_.steps.size()); }
  // Step 0 is the tokens themselves, (s_i, 1, v_i); step k the states after the trace's step k.
  const StateArray<float>& states(int step) const;
  const std::vector<ScanCombine>& combines(int step) const;  // empty for step 0
  int offset(int step) const;  // right - left of the step's combines; 0 for step 0

  // Sorted token indices that position `position` summarizes after `step`.
  const std::vector<int>& tokensHeld(int step, int position) const;
  bool holdsPrefix(int step, int position) const;  // exactly tokens 0..position
  bool updatedIn(int step, int position) const;    // the result of one of the step's combines
  bool holdsSegment(int step, int position) const; // contiguous tokens (the printed loop breaks this)
  // The row whose box shows the value `position` has after `step`: the last step that updated it,
  // or 0 (the tokens). A state not updated in a step keeps living in the row above.
  int rowHolding(int step, int position) const;

  ScanCounts countsThrough(int step) const;
  ScanCounts totals() const { return trace_.counts; }

  std::vector<float> outputs(int step) const;  // (N, dv): o = w / u of every position
  // Softmax weights over the held tokens that the state stands for: exp(s_i - m) / u.
  std::vector<float> heldWeights(int step, int position) const;
  // Positions whose final state is not their whole prefix.
  std::vector<int> incompletePrefixes() const;

 private:
  std::vector<float> scores_;
  ScanTrace<float> trace_;
  std::vector<std::vector<std::vector<int>>> held_;  // (steps + 1, N) token lists
};

}  // namespace aaren::ui
