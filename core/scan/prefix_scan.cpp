#include "core/scan/prefix_scan.hpp"

namespace aaren {

std::string_view to_string(ScanMethod method) {
  switch (method) {
    case ScanMethod::sequential: return "sequential";
    case ScanMethod::hillis_steele: return "hillis-steele";
    case ScanMethod::brent_kung: return "brent-kung";
    case ScanMethod::hillis_steele_as_printed: return "hillis-steele-as-printed";
  }
  return "unknown";
}

std::string renamed_scan_note(std::string_view name) {
  if (name != "blelloch") return {};
  return "the work-efficient scan is named brent-kung: it is Brent and Kung's inclusive up-sweep/down-sweep, "
         "not Blelloch's published exclusive scan (root set to the identity, down-sweep with swaps)";
}

int ceil_log2(long n) {
  int k = 0;
  while ((1L << k) < n) ++k;
  return k;
}

namespace {

// Applies one parallel step and, when tracing, records it. Every combine of a step must see the
// states as they were before the step; callers list combines so that applying them in order
// achieves that (each destination is read by no later combine of the same step).
template <class T>
class StepRunner {
 public:
  StepRunner(StateArray<T>& x, ScanTrace<T>* trace) : x_(x), trace_(trace) {}

  void combine(int left, int right) {
    x_.combine_into(right, left);
    ++step_work_;
    if (trace_) pending_.push_back({left, right});
  }

  void end_step() {
    if (step_work_ == 0) return;
    ++counts_.depth;
    counts_.work += step_work_;
    step_work_ = 0;
    if (trace_) {
      trace_->steps.push_back({std::move(pending_), x_});
      pending_.clear();
    }
  }

  ScanCounts counts() const { return counts_; }

 private:
  StateArray<T>& x_;
  ScanTrace<T>* trace_;
  std::vector<ScanCombine> pending_;
  long step_work_ = 0;
  ScanCounts counts_;
};

// Hillis-Steele with the given offsets: x[i] = x[i - off] (+) x[i] for all i >= off at once.
// Walking i downwards reads every x[i - off] before this step overwrites it.
template <class T>
void hillis_steele_steps(StepRunner<T>& run, int n, int first_exponent, int last_exponent) {
  for (int e = first_exponent; e <= last_exponent; ++e) {
    const long off = 1L << e;
    for (long i = n - 1; i >= off; --i) run.combine(int(i - off), int(i));
    run.end_step();
  }
}

// Brent-Kung's work-efficient inclusive scan, for any n. Up-sweep (a reduce): at offset off, position
// i = 2*off*k + 2*off - 1 absorbs the block ending at i - off, so positions 2^j - 1 end up
// holding complete prefixes. Down-sweep (the inclusive form, which needs no final pass):
// at offset off, position 3*off - 1 + 2*off*k takes in the complete prefix ending at i - off.
// Each step touches disjoint positions; in all fewer than 2n combines.
template <class T>
void brent_kung_steps(StepRunner<T>& run, int n) {
  long top = 1;
  for (long off = 1; off < n; off *= 2) {
    for (long i = 2 * off - 1; i < n; i += 2 * off) run.combine(int(i - off), int(i));
    run.end_step();
    top = off;
  }
  for (long off = top / 2; off >= 1; off /= 2) {
    for (long i = 3 * off - 1; i < n; i += 2 * off) run.combine(int(i - off), int(i));
    run.end_step();
  }
}

}  // namespace

template <class T>
ScanCounts inclusive_scan(StateArray<T>& x, ScanMethod method, ScanTrace<T>* trace) {
  if (trace) {
    trace->method = method;
    trace->initial = x;
    trace->steps.clear();
  }
  StepRunner<T> run(x, trace);
  const int n = x.n;
  switch (method) {
    case ScanMethod::sequential:
      for (int i = 1; i < n; ++i) {
        run.combine(i - 1, i);
        run.end_step();
      }
      break;
    case ScanMethod::hillis_steele:
      hillis_steele_steps(run, n, 0, ceil_log2(n) - 1);
      break;
    case ScanMethod::hillis_steele_as_printed:
      // Algorithm 1 as printed: for i = 1 .. ceil(log N), offset 2^i. Offset 1 never runs.
      hillis_steele_steps(run, n, 1, ceil_log2(n));
      break;
    case ScanMethod::brent_kung:
      brent_kung_steps(run, n);
      break;
  }
  if (trace) trace->counts = run.counts();
  return run.counts();
}

template ScanCounts inclusive_scan<float>(StateArray<float>&, ScanMethod, ScanTrace<float>*);
template ScanCounts inclusive_scan<double>(StateArray<double>&, ScanMethod, ScanTrace<double>*);

}  // namespace aaren
