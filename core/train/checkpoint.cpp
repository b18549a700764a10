#include "core/train/checkpoint.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>

#include "core/io/checksum.hpp"
#include "core/io/safetensors.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

namespace {

constexpr const char* kWrittenBy = "Aaren Studio " AAREN_VERSION;

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

using Metadata = std::map<std::string, std::string>;

const std::string& required(const Metadata& metadata, const std::string& key, const std::string& source) {
  const auto it = metadata.find(key);
  if (it == metadata.end())
    fail(source, "the header's metadata has no '" + key + "' (a damaged header, or not a checkpoint of a run)");
  return it->second;
}

std::string provenance(const Metadata& metadata, int version) {
  const auto it = metadata.find("written_by");
  const std::string writer = it != metadata.end() ? it->second : std::string("Aaren Studio");
  return "written by " + writer + " (run format version " + std::to_string(version) + ")";
}

std::string data_checksum(const SafetensorsContent& content) {
  Fnv1a64 checksum;  // over the data section: the tensors tile it in file order
  for (const Tensor& tensor : content.tensors) checksum.add_little_endian(tensor.data);
  return checksum.hex();
}

std::string count_of(int count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string describe(const ModelConfig& m) {
  return std::string(m.kind == ModelKind::aaren ? "an Aaren model" : "a Transformer") + " with d_model " +
         std::to_string(m.d_model) + ", " + count_of(m.heads, "head") + ", " + count_of(m.layers, "layer") +
         ", d_ff " + std::to_string(m.d_ff) + ", look-back " + std::to_string(m.seq_len) + ", horizon " +
         std::to_string(m.horizon) + " and " + count_of(m.channels, "channel");
}

// "d_model differs", "kind, d_model differ"
std::string differ(const std::vector<std::string>& fields) {
  std::string text;
  for (const std::string& field : fields) text += (text.empty() ? "" : ", ") + field;
  return text + (fields.size() == 1 ? " differs" : " differ");
}

std::vector<std::string> model_differences(const ModelConfig& a, const ModelConfig& b) {
  std::vector<std::string> fields;
  if (a.kind != b.kind) fields.push_back("kind");
  if (a.d_model != b.d_model) fields.push_back("d_model");
  if (a.heads != b.heads) fields.push_back("heads");
  if (a.layers != b.layers) fields.push_back("layers");
  if (a.d_ff != b.d_ff) fields.push_back("d_ff");
  if (a.seq_len != b.seq_len) fields.push_back("look-back");
  if (a.horizon != b.horizon) fields.push_back("horizon");
  if (a.channels != b.channels) fields.push_back("channels");
  return fields;
}

// What the weights learned depends on besides the architecture; the data file's path and the
// training settings may differ (a moved file, a hand-edited epoch count).
std::vector<std::string> preparation_differences(const RunConfig& a, const RunConfig& b) {
  std::vector<std::string> fields;
  if (a.channels != b.channels) fields.push_back("channel list");
  if (a.target != b.target) fields.push_back("target");
  if (a.date_column != b.date_column) fields.push_back("date column");
  if (a.interpolate_missing != b.interpolate_missing) fields.push_back("gap filling");
  if (a.decimal_mark != b.decimal_mark) fields.push_back("decimal mark");
  if (to_string(a.split) != to_string(b.split)) fields.push_back("split");
  if (a.scaler.mean != b.scaler.mean || a.scaler.stddev != b.scaler.stddev) fields.push_back("scaler");
  return fields;
}

void check_format(const Metadata& metadata, const std::string& source) {
  if (metadata.empty())
    fail(source, "the header has no metadata: not a checkpoint of an Aaren Studio run (another program wrote it?)");
  const std::string& format = required(metadata, "format", source);
  if (format != kRunFormat)
    fail(source, "not a checkpoint of an Aaren Studio run (its metadata says format '" + format + "', not '" +
                     kRunFormat + "')");
}

void check_belongs_to_run(const Metadata& metadata, const std::string& source, const RunConfig& config) {
  const std::string& version_text = required(metadata, "version", source);
  int version = 0;
  const auto [end, error] = std::from_chars(version_text.data(), version_text.data() + version_text.size(), version);
  if (error != std::errc() || end != version_text.data() + version_text.size() || version < 1)
    fail(source, "the metadata's 'version' must be a whole number, got '" + version_text + "' (a damaged header)");
  if (version > kRunFormatVersion)
    fail(source, provenance(metadata, version) + ", a newer Aaren Studio: this one reads run format versions " +
                     std::to_string(kOldestRunFormatVersion) + " to " + std::to_string(kRunFormatVersion));
  if (version != config.version)
    fail(source, provenance(metadata, version) + ", but config.json beside it is version " +
                     std::to_string(config.version) + ": the folder holds the files of two different runs");

  const std::string kind(to_string(config.model.kind));
  if (version == 1) {
    if (required(metadata, "model", source) != kind)
      fail(source, "written for a model of kind '" + metadata.at("model") + "', but this run's config.json describes " +
                       describe(config.model));
    return;
  }
  required(metadata, "written_by", source);
  const RunConfig written = parse_run_config(required(metadata, "config", source), source + " (its copy of config.json)");
  if (const std::vector<std::string> fields = model_differences(written.model, config.model); !fields.empty())
    fail(source, "written for " + describe(written.model) + ", but this run's config.json describes " +
                     describe(config.model) + ": a model of another shape (" + differ(fields) + ")");
  if (required(metadata, "model", source) != kind)
    fail(source, "the metadata's 'model' says '" + metadata.at("model") + "' but its copy of config.json says '" +
                     kind + "' (a damaged header)");
  if (const std::vector<std::string> fields = preparation_differences(written, config); !fields.empty())
    fail(source, "trained on data prepared otherwise than config.json describes (" + differ(fields) +
                     "): config.json belongs to a later run into this folder that stopped before it saved "
                     "a model; train again, or use another folder");
}

}  // namespace

std::string serialize_run_parameters(const ParameterLayout& layout, const std::vector<float>& params,
                                     Metadata metadata, const std::string& model) {
  if (params.size() != layout.total())
    throw std::invalid_argument("the parameters (" + std::to_string(params.size()) + " values) do not match the run's " +
                                model + " configuration (" + std::to_string(layout.total()) + ")");
  std::vector<TensorView> tensors;
  Fnv1a64 checksum;
  for (const ParameterEntry& e : layout.entries()) {
    const std::span<const float> values(params.data() + e.offset, e.size);
    tensors.push_back({e.name, e.shape, values});
    checksum.add_little_endian(values);
  }
  metadata["format"] = kRunFormat;
  metadata["version"] = std::to_string(kRunFormatVersion);
  metadata["written_by"] = kWrittenBy;
  metadata["data_fnv1a64"] = checksum.hex();
  return serialize_safetensors(tensors, metadata);
}

std::string serialize_checkpoint(const RunConfig& config, const std::vector<float>& params) {
  return serialize_run_parameters(ParameterLayout(config.model), params,
                                  {{"model", std::string(to_string(config.model.kind))},
                                   {"config", run_config_json(config)}},
                                  "model");
}

std::vector<float> parse_checkpoint(std::string_view bytes, const std::string& source, const RunConfig& config) {
  const SafetensorsContent content = parse_safetensors(bytes, source);
  check_format(content.metadata, source);
  // Damage before provenance: changed values must not be explained as anything else.
  if (content.metadata.contains("data_fnv1a64") || config.version >= 2) {
    const std::string& stored = required(content.metadata, "data_fnv1a64", source);
    if (data_checksum(content) != stored)
      fail(source, "the tensor values do not match the checksum stored with them: the file was damaged after it "
                   "was written (train again, or restore it from a copy)");
  }
  check_belongs_to_run(content.metadata, source, config);

  const ParameterLayout layout(config.model);
  std::vector<ExpectedTensor> expected;
  for (const ParameterEntry& e : layout.entries()) expected.push_back({e.name, e.shape});
  check_tensors(content, expected, source);
  std::vector<float> params(layout.total(), 0.0f);
  for (const ParameterEntry& e : layout.entries()) {
    const Tensor* tensor = content.find(e.name);
    std::copy(tensor->data.begin(), tensor->data.end(), params.begin() + std::ptrdiff_t(e.offset));
  }
  return params;
}

}  // namespace aaren
