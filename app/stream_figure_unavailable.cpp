// `aaren bench stream --chart` in a build without the user interface library (AAREN_CLI_CHARTS=OFF,
// as scripts/test's sanitized pass builds it): the path is still checked, and asking for a chart
// says why there is none before anything is measured.
#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "app/stream_figure.hpp"

namespace aaren::cli {

bool is_stream_figure_path(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  static constexpr const char* kSuffixes[] = {".png", ".svg", ".pdf"};
  return std::any_of(std::begin(kSuffixes), std::end(kSuffixes),
                     [&](const char* suffix) { return lower.size() > 4 && lower.ends_with(suffix); });
}

bool stream_figures_available() { return false; }

void write_stream_figure(const std::string& path, const bench::StreamBenchOptions&, const bench::StreamBenchResult&) {
  throw std::runtime_error("cannot draw " + path + ": this aaren was built without charts (AAREN_CLI_CHARTS=OFF)");
}

}  // namespace aaren::cli
