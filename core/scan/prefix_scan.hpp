#pragma once
// Inclusive prefix scans of (m, u, w) summaries: after the scan, position i summarizes tokens 0..i.
// Three correct algorithms and the paper's printed Algorithm 1, kept to show its erratum.
//
// The work-efficient one is Brent and Kung's inclusive up-sweep / down-sweep, not Blelloch's scan
// as he published it (1990). Blelloch's is exclusive: after the same up-sweep it sets the root to
// the identity and sweeps down with a swap at every node, 2(N - 1) combines for N a power of two
// (14 at N = 8), and position i ends up with tokens 0..i-1. The inclusive down-sweep needs no
// identity and no swap: it only sends finished prefixes right, 2N - 2 - log2 N combines (11 at
// N = 8), and every position ends up with the prefix attention needs.
#include <string>
#include <string_view>
#include <vector>

#include "core/scan/state_array.hpp"

namespace aaren {

enum class ScanMethod {
  sequential,               // N - 1 combines, one after another
  hillis_steele,            // offsets 1, 2, 4, ...: ceil(log2 N) steps, O(N log N) combines
  brent_kung,               // inclusive up-sweep / down-sweep: about 2 log2 N steps, fewer than 2N combines
  hillis_steele_as_printed  // the paper's Algorithm 1: offsets 2^i for i = 1..ceil(log2 N) (wrong)
};

std::string_view to_string(ScanMethod method);

// For a scan named by its old, wrong name ("blelloch"): why it was renamed and what to write
// instead, to add to an "unknown name" message; empty for any other name.
std::string renamed_scan_note(std::string_view name);

// One combine of a step: x[right] = x[left] (+) x[right].
struct ScanCombine {
  int left;
  int right;
};

template <class T>
struct ScanStep {
  std::vector<ScanCombine> combines;
  StateArray<T> states;  // every position's summary after this step
};

struct ScanCounts {
  int depth = 0;   // parallel steps that combine something
  long work = 0;   // combines in all
};

template <class T>
struct ScanTrace {
  ScanMethod method = ScanMethod::sequential;
  StateArray<T> initial;
  std::vector<ScanStep<T>> steps;
  ScanCounts counts;
};

// Scans x in place and returns its depth and work. With a trace, every step is recorded
// (a copy of all states per step); without one the scan does no extra work.
template <class T>
ScanCounts inclusive_scan(StateArray<T>& x, ScanMethod method, ScanTrace<T>* trace = nullptr);

int ceil_log2(long n);

}  // namespace aaren
