#include "core/train/adamw.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace aaren {

AdamW::AdamW(const ParameterLayout& layout, const AdamWSettings& settings)
    : s_(settings), m_(layout.total(), 0.0f), v_(layout.total(), 0.0f), decay_(layout.total(), 0.0f) {
  for (const ParameterEntry& e : layout.entries())
    if (e.shape.size() >= 2) std::fill(decay_.begin() + long(e.offset), decay_.begin() + long(e.offset + e.size), 1.0f);
}

void AdamW::step(float* p, const float* g, double lr) {
  ++t_;
  const float b1 = float(s_.beta1), b2 = float(s_.beta2);
  const float c1 = float(1.0 / (1.0 - std::pow(s_.beta1, double(t_))));
  const float c2 = float(1.0 / (1.0 - std::pow(s_.beta2, double(t_))));
  const float step = float(lr), decay = float(lr * s_.weight_decay), eps = float(s_.eps);
  for (std::size_t i = 0; i < m_.size(); ++i) {
    m_[i] = b1 * m_[i] + (1.0f - b1) * g[i];
    v_[i] = b2 * v_[i] + (1.0f - b2) * g[i] * g[i];
    p[i] -= decay * decay_[i] * p[i];
    p[i] -= step * (m_[i] * c1) / (std::sqrt(v_[i] * c2) + eps);
  }
}

double clip_grad_norm(float* g, std::size_t n, double max_norm) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += double(g[i]) * double(g[i]);
  const double norm = std::sqrt(sum);
  if (max_norm > 0 && norm > max_norm) {
    const float scale = float(max_norm / norm);
    for (std::size_t i = 0; i < n; ++i) g[i] *= scale;
  }
  return norm;
}

double learning_rate(LrSchedule schedule, double base, long step, long warmup, long total) {
  if (warmup > 0 && step < warmup) return base * double(step + 1) / double(warmup);
  if (schedule == LrSchedule::constant || total <= warmup) return base;
  const double progress = std::clamp(double(step - warmup) / double(total - warmup), 0.0, 1.0);
  return base * 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
}

}  // namespace aaren
