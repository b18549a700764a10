#pragma once
// What every fuzz target counts as a bug besides a crash, a sanitizer report, a hang or running out
// of memory: a reader that accepts an input but returns something that breaks its own promises, or
// that refuses one with an exception other than the ones it documents (std::runtime_error,
// std::invalid_argument) or with a message that does not name the input. A broken promise aborts,
// so libFuzzer keeps the input; a refusal the target does not expect escapes, and libFuzzer reports
// the uncaught exception.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <typeinfo>

namespace aaren::fuzz {

// Stops the run so that libFuzzer keeps the input that broke the promise.
[[noreturn]] inline void broken_promise(std::string_view promise) {
  std::fprintf(stderr, "fuzz target: broken promise: %.*s\n", int(promise.size()), promise.data());
  std::abort();
}

inline void require(bool kept, std::string_view promise) {
  if (!kept) broken_promise(promise);
}

// A documented refusal: which exception, and its message.
struct Refusal {
  std::string type;
  std::string message;
  bool operator==(const Refusal&) const = default;
};

// Runs `read`; a documented refusal must name `source`. Returns it, or nothing when the input was
// accepted.
template <class Read>
std::optional<Refusal> refusal_of(Read&& read, const std::string& source) {
  const auto refused = [&](const std::exception& error) {
    require(std::string_view(error.what()).find(source) != std::string_view::npos,
            "a refusal names the input: " + std::string(error.what()));
    return Refusal{typeid(error).name(), error.what()};
  };
  try {
    read();
    return std::nullopt;
  } catch (const std::runtime_error& error) {
    return refused(error);
  } catch (const std::invalid_argument& error) {
    return refused(error);
  }
}

template <class Read>
bool accepted(Read&& read, const std::string& source) {
  return !refusal_of(read, source);
}

// A file called `name` holding `bytes`, in a folder of this process's own (removed at exit): for
// comparing a reader of paths with its twin for text in memory.
inline std::string file_holding(std::string_view bytes, const std::string& name) {
  struct Folder {
    std::filesystem::path path;
    Folder() {
      std::string pattern = (std::filesystem::temp_directory_path() / "aaren-fuzz-XXXXXX").string();
      if (::mkdtemp(pattern.data()) == nullptr) broken_promise("a temporary folder can be made");
      path = pattern;
    }
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Folder folder;
  const std::string path = (folder.path / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  require(bool(out), "the temporary file can be written");
  return path;
}

}  // namespace aaren::fuzz
