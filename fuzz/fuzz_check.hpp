#pragma once
// What every fuzz target counts as a bug besides a crash, a sanitizer report, a hang or running out
// of memory: a reader that accepts an input but returns something that breaks its own promises, or
// that refuses one with an exception other than the ones it documents (std::runtime_error,
// std::invalid_argument) or with a message that does not name the input.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace aaren::fuzz {

// Stops the run so that libFuzzer keeps the input that broke the promise.
[[noreturn]] inline void broken_promise(std::string_view promise) {
  std::fprintf(stderr, "fuzz target: broken promise: %.*s\n", int(promise.size()), promise.data());
  std::abort();
}

inline void require(bool kept, std::string_view promise) {
  if (!kept) broken_promise(promise);
}

// Runs `read`; a documented refusal must name `source`. Returns whether the input was accepted.
template <class Read>
bool accepted(Read&& read, const std::string& source) {
  try {
    read();
    return true;
  } catch (const std::runtime_error& error) {
    require(std::string_view(error.what()).find(source) != std::string_view::npos,
            "a runtime_error names the input: " + std::string(error.what()));
  } catch (const std::invalid_argument& error) {
    require(std::string_view(error.what()).find(source) != std::string_view::npos,
            "an invalid_argument names the input: " + std::string(error.what()));
  }
  return false;
}

}  // namespace aaren::fuzz
