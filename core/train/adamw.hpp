#pragma once
// AdamW (Loshchilov & Hutter): Adam with weight decay decoupled from the gradient, applied to
// matrices only (LayerNorm parameters, biases and Aaren's q0 are not decayed). One loop over the
// flat parameter buffer.
#include <cstddef>
#include <vector>

#include "core/model/parameter_layout.hpp"

namespace aaren {

struct AdamWSettings {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;
};

class AdamW {
 public:
  AdamW(const ParameterLayout& layout, const AdamWSettings& settings);
  void step(float* params, const float* grads, double lr);
  long steps() const { return t_; }

 private:
  AdamWSettings s_;
  std::vector<float> m_, v_, decay_;  // decay_: 1 for decayed parameters, 0 for the others
  long t_ = 0;
};

// Scales grads so that their global L2 norm is at most max_norm; returns the norm before.
double clip_grad_norm(float* grads, std::size_t n, double max_norm);

enum class LrSchedule { constant, cosine };

// Linear warm-up over `warmup` steps, then constant or cosine decay to 0 at `total` steps.
double learning_rate(LrSchedule schedule, double base, long step, long warmup, long total);

}  // namespace aaren
