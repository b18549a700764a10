#include <algorithm>
#include <cctype>
#include <string>

#include "app/stream_figure.hpp"

namespace aaren::cli {

bool is_stream_figure_path(const std::string& path) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  std::string suffix = name.substr(dot + 1);
  std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return suffix == "png" || suffix == "svg" || suffix == "pdf";
}

}  // namespace aaren::cli
