// `aaren bench stream --chart` in a build without the user interface library (AAREN_CLI_CHARTS=OFF,
// as scripts/test's sanitized pass builds it): asking for a chart says why there is none before
// anything is measured.
#include <stdexcept>

#include "app/stream_figure.hpp"

namespace aaren::cli {

bool stream_figures_available() { return false; }

void write_stream_figure(const std::string& path, const bench::StreamBenchOptions&, const bench::StreamBenchResult&) {
  throw std::runtime_error("cannot draw " + path + ": this aaren was built without charts (AAREN_CLI_CHARTS=OFF)");
}

}  // namespace aaren::cli
