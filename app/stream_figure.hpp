#pragma once
// `aaren bench stream --chart FILE`: the measured Figure 5 (ui/figure5_export.hpp) drawn without
// a display. Kept apart so the rest of the command line needs no Qt.
#include <string>

#include "core/bench/stream_bench.hpp"

namespace aaren::cli {

// The suffix after the file name's last '.', as QFileInfo::suffix gives it, is png, svg or pdf in
// any case. Plain C++: a build without charts checks the path the same way.
bool is_stream_figure_path(const std::string& path);
// False in a build without the user interface library (AAREN_CLI_CHARTS=OFF: the sanitized pass).
bool stream_figures_available();

// Throws std::runtime_error naming the file when it cannot be written.
void write_stream_figure(const std::string& path, const bench::StreamBenchOptions& options,
                         const bench::StreamBenchResult& result);

}  // namespace aaren::cli
