#pragma once
// Whether the streaming Transformer splits its decode among the cores (causal_attention_decode
// over a KvCache with a WorkerPool) is measured, not assumed. Where one core already reads memory
// at the machine's full rate (as on the two-core machine the README measures, with large pages),
// a split only adds the wake-up of a worker; where one core cannot, two read faster. So each time
// the cache passes decode_split_min_bytes, and again each time it has doubled since, the next
// decodes alternate between one core and all of them, and the split is kept only if the median
// of its times is clearly the smaller. The choice takes the times from its caller, so it can be
// checked without a clock.
#include <cstddef>
#include <vector>

#include "core/nn/causal_attention.hpp"

namespace aaren {

class DecodeSplitChoice {
 public:
  // `trials` timed decodes of each kind per measurement.
  explicit DecodeSplitChoice(std::size_t min_bytes = decode_split_min_bytes, int trials = 8);

  struct Plan {
    bool split = false;  // split this decode among the cores
    bool timed = false;  // report its time with record()
  };
  // What the next decode over a cache of `bytes` does.
  Plan next(std::size_t bytes);
  // The seconds the decode planned by the last next() took; only after a timed plan.
  void record(double seconds);
  // Forgets what was measured (a new stream starts small).
  void reset();

  bool splits() const { return split_; }  // the choice outside a measurement

 private:
  std::size_t min_bytes_;
  int trials_;
  std::size_t measured_at_ = 0;  // cache bytes at the last measurement; 0: none yet
  bool measuring_ = false;
  bool last_split_ = false;
  bool split_ = false;
  std::vector<double> seconds_[2];  // timed decodes: [0] one core, [1] split
};

}  // namespace aaren
