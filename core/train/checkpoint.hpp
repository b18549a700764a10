#pragma once
// A run's model.safetensors: the parameters by the names of docs/DESIGN.md section 4, and in the
// header's metadata what it takes to tell whether they belong to the run they are loaded for:
//   format        "aaren-studio-run"
//   version       the run format version (run_folder.hpp)
//   written_by    "Aaren Studio X.Y.Z"
//   model         "aaren" or "transformer"
//   config        the run's config.json, as written beside it            (since version 2)
//   data_fnv1a64  checksum of the data section (core/io/checksum.hpp)  (since version 2)
// Structure, checksum, provenance and shapes are each checked, so that a truncated or damaged
// file, a checkpoint of another architecture or version, and a folder mixing two runs all give a
// message saying which.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/train/run_folder.hpp"

namespace aaren {

// The whole file. Throws std::invalid_argument when params does not fit config.model.
std::string serialize_checkpoint(const RunConfig& config, const std::vector<float>& params);

// Any run's model.safetensors (forecasting or events): `params`, laid out by `layout`, with the run
// format's own metadata (format, version, written_by, data_fnv1a64) and the caller's (model,
// config, ...). `model` names the configuration in the message thrown when the sizes differ.
std::string serialize_run_parameters(const ParameterLayout& layout, const std::vector<float>& params,
                                     std::map<std::string, std::string> metadata, const std::string& model);

// The parameters in ParameterLayout order, once the checkpoint has passed every check against the
// run `config` (read from config.json). `source` names the file in messages. Throws
// std::runtime_error "SOURCE: PROBLEM".
std::vector<float> parse_checkpoint(std::string_view bytes, const std::string& source, const RunConfig& config);

}  // namespace aaren
