#pragma once
// The one way a caller stops a long read and hears how far it has got. Every reader's options
// carry it (CsvReadOptions, EventLogOptions), so the window cancels each of them the same way and
// the command line stops them all with its interrupt flag.
#include <algorithm>
#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>

namespace aaren {

// A read stopped through its CancelToken, as opposed to one that failed.
struct ReadCancelled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CancelToken {
  // Set (from any thread) to stop the work with ReadCancelled at its next check; checked as
  // often as progress is reported.
  const std::atomic<bool>* cancel = nullptr;
  // Called from the working thread with the fraction done: rising, and 1 last.
  std::function<void(double fraction)> progress;

  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }

  // For the options that carry a token (CsvReadOptions, EventLogOptions): takes `token`'s flag and
  // progress in place of its own, leaving the other options as they are.
  void set_token(const CancelToken& token) { *this = token; }

  // `name` is what is being read, for the message ("reading co2.csv was cancelled").
  void throw_if_cancelled(const std::string& name) const {
    if (cancelled()) throw ReadCancelled("reading " + name + " was cancelled");
  }

  // Checks for cancellation first, so every report is also a point where the work can stop.
  void report(double fraction, const std::string& name) const {
    throw_if_cancelled(name);
    if (progress) progress(std::clamp(fraction, 0.0, 1.0));
  }
};

}  // namespace aaren
