#pragma once
// From the raw step times of a streaming run (core/bench/stream_bench.hpp) to what Figure 5 shows,
// robustly on a busy machine. A step interrupted by another process can take a hundred times its
// cost, and a pass can run slower for a while when the machine is loaded; neither is the model's
// cost. So each step's time is the median of its neighbourhood (the step and the 15 before it, in
// its own pass), the passes are combined by the median, and the cumulative time is the running sum
// of exactly the per-token times shown: the two charts agree by construction. The spread is kept:
// per sample, the quartiles of the raw steps around it (all passes) and the lowest and highest
// cumulative time of a single pass; the wall clock, interruptions included, is kept beside them.
//
// The growth exponent of the cumulative time is fitted over the upper half of N, on the samples
// whose passes agree (their cumulative times within kMaxRelativeSpread of the median), and each
// pass is fitted alone as well, so the exponent comes with its range. The shape a lecturer may
// state follows from that range only (growth_shape).
#include <vector>

#include "core/bench/stream_bench.hpp"

namespace aaren::bench {

constexpr int kStepWindow = 16;                // a step's typical time: the median of the last 16
constexpr double kMaxRelativeSpread = 0.5;     // passes further apart than this: noise, not fitted
constexpr double kStraightTolerance = 0.1;     // |k - 1| within this: a straight line
constexpr int kMinFitPoints = 3;

// Seconds of step `t` as typical for its neighbourhood: the median of steps max(0, t-15)..t.
double typical_step_seconds(const std::vector<float>& steps, long t);

// One model's samples: `passes[p][t]` is the raw time of step t in pass p (a pass stopped early is
// shorter); `points` the sampled token counts (1-based, increasing). Fills, for every point that
// the first pass reached, the model's latency, cumulative time, their spreads and the wall clock;
// `pass_cumulative` gets, per pass that reached every point, its own cumulative time at each.
void summarize_model(const std::vector<std::vector<float>>& passes, const std::vector<long>& points, int model,
                     std::vector<StreamSample>& samples, std::vector<std::vector<double>>& pass_cumulative);

// The fit of DESIGN over the samples that are above the noise (see above); with the passes' own
// cumulative times (pass_cumulative[p][s]), the exponent's range over the passes.
GrowthFit fit_growth(const std::vector<StreamSample>& samples, int model,
                     const std::vector<std::vector<double>>& pass_cumulative);

// What the cumulative-time curve may be called, from its fitted exponent and range.
enum class GrowthShape {
  unmeasured,    // fewer than kMinFitPoints samples above the noise
  single_pass,   // one pass: an exponent, but no range to judge it by
  straight,      // every pass within kStraightTolerance of 1
  bends_upward,  // every pass above 1 + kStraightTolerance
  uncertain,     // the range straddles the bounds, or lies below a straight line
};
GrowthShape growth_shape(const GrowthFit& fit);

}  // namespace aaren::bench
