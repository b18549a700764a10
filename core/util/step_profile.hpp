#pragma once
// Where a training step's time goes (`aaren bench train --profile`): the layers time themselves
// into a few parts while profiling is on. Off, the default, a scope costs one relaxed atomic load.
// A part's time is summed over the threads that ran it (CPU time): two workers each in a product
// for 1 ms add 2 ms to `products`.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace aaren::profile {

enum class Part { products, attention, layernorm, gelu, optimizer, copies };
inline constexpr int kParts = 6;
inline constexpr Part kAllParts[kParts] = {Part::products, Part::attention, Part::layernorm,
                                           Part::gelu,     Part::optimizer, Part::copies};

// "matrix products", "attention", ... for tables.
const char* name(Part part);

void enable(bool on);
bool enabled();
void reset();
// Seconds per part since the last reset(), summed over threads.
std::array<double, kParts> seconds();
void add(Part part, std::int64_t nanoseconds);

// Adds the time from its construction to its destruction to `part`, when profiling was on at its start.
class Scope {
 public:
  explicit Scope(Part part) : part_(part), on_(enabled()) {
    if (on_) start_ = std::chrono::steady_clock::now();
  }
  ~Scope() {
    if (!on_) return;
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    add(part_, std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Part part_;
  bool on_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace aaren::profile
