#include "core/util/step_profile.hpp"

namespace aaren::profile {

namespace {

std::atomic<bool> on{false};
std::array<std::atomic<std::int64_t>, kParts> nanoseconds{};

}  // namespace

const char* name(Part part) {
  switch (part) {
    case Part::products: return "matrix products";
    case Part::attention: return "attention";
    case Part::layernorm: return "LayerNorm";
    case Part::gelu: return "GELU";
    case Part::optimizer: return "optimizer";
    case Part::copies: return "copies";
  }
  return "?";
}

void enable(bool value) { on.store(value, std::memory_order_relaxed); }
bool enabled() { return on.load(std::memory_order_relaxed); }

void reset() {
  for (std::atomic<std::int64_t>& part : nanoseconds) part.store(0, std::memory_order_relaxed);
}

std::array<double, kParts> seconds() {
  std::array<double, kParts> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = 1e-9 * double(nanoseconds[i].load(std::memory_order_relaxed));
  return out;
}

void add(Part part, std::int64_t ns) { nanoseconds[std::size_t(part)].fetch_add(ns, std::memory_order_relaxed); }

}  // namespace aaren::profile
