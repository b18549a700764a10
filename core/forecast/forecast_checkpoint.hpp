#pragma once
// A run's model.safetensors: the parameters by the names of docs/DESIGN.md section 4, and in the
// header's metadata what it takes to tell whether they belong to the run they are loaded for:
//   format        "aaren-studio-run"
//   version       the run format version (run_folder.hpp)
//   written_by    "Aaren Studio X.Y.Z"
//   model         "aaren" or "transformer"
//   config        the run's config.json, as written beside it            (since version 2)
//   data_fnv1a64  checksum of the data section (core/io/checksum.hpp)  (since version 2)
// Structure, checksum, provenance and shapes are each checked (parse_run_parameters in
// run_folder_format.hpp), so that a truncated or damaged file, a checkpoint of another
// architecture or version, and a folder mixing two runs all give a message saying which.
#include <string>
#include <string_view>
#include <vector>

#include "core/forecast/forecast_run_folder.hpp"

namespace aaren {

// The whole file. Throws std::invalid_argument when params does not fit config.model.
std::string serialize_checkpoint(const ForecastRunConfig& config, const std::vector<float>& params);

// The parameters in ParameterLayout order, once the checkpoint has passed every check against the
// run `config` (read from config.json). `source` names the file in messages. Throws
// std::runtime_error "SOURCE: PROBLEM".
std::vector<float> parse_forecast_checkpoint(std::string_view bytes, const std::string& source, const ForecastRunConfig& config);

}  // namespace aaren
