#include "core/train/run_folder_format.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/checksum.hpp"
#include "core/io/json_fields.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/io/safetensors.hpp"

namespace aaren {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kWrittenBy = "Aaren Studio " AAREN_VERSION;
// Every file a run folder holds; a reader opens these names only.
constexpr const char* kRunFiles[] = {kRunConfigFile, kRunCheckpointFile, kRunMetricsFile, kRunLossFile};

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

// "an event-model run", or "a run of task 'X'" for a task this version does not know.
std::string describe_task(std::string_view name) {
  for (const RunTask& task : kRunTasks)
    if (task.name == name) return std::string(task.description);
  return "a run of task '" + std::string(name) + "'";
}

std::string provenance(const CheckpointMetadata& metadata, int version) {
  const auto it = metadata.find("written_by");
  const std::string writer = it != metadata.end() ? it->second : std::string("Aaren Studio");
  return "written by " + writer + " (run format version " + std::to_string(version) + ")";
}

void check_format(const CheckpointMetadata& metadata, const std::string& source) {
  if (metadata.empty())
    fail(source, "the header has no metadata: not a checkpoint of an Aaren Studio run (another program wrote it?)");
  const std::string& format = required_metadata(metadata, "format", source);
  if (format != kRunFormat)
    fail(source, "not a checkpoint of an Aaren Studio run (its metadata says format '" + format + "', not '" +
                     kRunFormat + "')");
}

void check_checksum(const SafetensorsContent& content, const std::string& source) {
  Fnv1a64 checksum;  // over the data section: the tensors tile it in file order
  for (const Tensor& tensor : content.tensors) checksum.add_little_endian(tensor.data);
  if (checksum.hex() != required_metadata(content.metadata, "data_fnv1a64", source))
    fail(source, "the tensor values do not match the checksum stored with them: the file was damaged after it "
                 "was written (train again, or restore it from a copy)");
}

int checkpoint_version(const CheckpointMetadata& metadata, const std::string& source, const RunTask& task,
                       int config_version) {
  const std::string& version_text = required_metadata(metadata, "version", source);
  int version = 0;
  const auto [end, error] = std::from_chars(version_text.data(), version_text.data() + version_text.size(), version);
  if (error != std::errc() || end != version_text.data() + version_text.size() || version < 1)
    fail(source, "the metadata's 'version' must be a whole number, got '" + version_text + "' (a damaged header)");
  if (version > kRunFormatVersion)
    fail(source, provenance(metadata, version) + ", a newer Aaren Studio: this one reads run format versions " +
                     std::to_string(task.oldest_version) + " to " + std::to_string(kRunFormatVersion));
  if (version != config_version)
    fail(source, provenance(metadata, version) + ", but config.json beside it is version " +
                     std::to_string(config_version) + ": the folder holds the files of two different runs");
  return version;
}

void check_task(const CheckpointMetadata& metadata, const std::string& source, const RunTask& task) {
  const auto it = metadata.find("task");
  const std::string_view written = it != metadata.end() ? std::string_view(it->second) : kForecastingRuns.name;
  if (written != task.name)
    fail(source, "the checkpoint of " + describe_task(written) + ", but config.json beside it describes " +
                     std::string(task.description) + ": the folder holds the files of two different runs");
}

}  // namespace

std::string run_file(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

bool run_file_exists(const std::string& path) { return fs::exists(path); }

void require_run_folder(const std::string& dir) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": no such run folder");
}

std::string require_checkpoint_file(const std::string& dir) {
  const std::string path = run_file(dir, kRunCheckpointFile);
  if (!fs::exists(path)) throw std::runtime_error(path + ": missing (the run has not finished an epoch yet?)");
  return path;
}

void prepare_run_folder(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create the run folder (" + ec.message() + ")");
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": exists and is not a folder");
  if (::access(dir.c_str(), W_OK) != 0)
    throw std::runtime_error(dir + ": cannot write into the run folder (" + std::strerror(errno) + ")");
  for (const char* name : kRunFiles) remove_stale_temporary_files(run_file(dir, name));
}

std::string run_config_text(const RunTask& task, json model, json data, const TrainSettings& training) {
  json out = {{"format", kRunFormat},
              {"version", kRunFormatVersion},
              {"model", std::move(model)},
              {"data", std::move(data)},
              {"training", train_settings_json(training)}};
  if (task.name != kForecastingRuns.name) out["task"] = std::string(task.name);
  return out.dump(2) + "\n";
}

RunConfigDocument parse_run_config_document(std::string_view text, const std::string& source, const RunTask& task) {
  RunConfigDocument document{parse_json_text(text, source)};
  const json& root = document.root;
  if (!root.is_object()) fail(source, "not a JSON object");
  if (json_string_or(root, "format", source, "") != kRunFormat)
    fail(source, "not an Aaren Studio run configuration (field 'format' should be '" + std::string(kRunFormat) + "')");
  const bool has_task = root.contains("task");
  const std::string written = json_string_or(root, "task", source, std::string(kForecastingRuns.name));
  if (written != task.name)
    fail(source, describe_task(written) + ", not " + std::string(task.description) +
                     (has_task ? "" : " (its config.json has no 'task': '" + std::string(task.name) + "')"));
  document.version = json_int(root, "version", source, 0, 1 << 20);
  if (document.version < task.oldest_version || document.version > kRunFormatVersion)
    fail(source, "written by run format version " + std::to_string(document.version) + "; this Aaren Studio reads " +
                     std::string(task.plural) + " of versions " + std::to_string(task.oldest_version) + " to " +
                     std::to_string(kRunFormatVersion));
  return document;
}

json train_settings_json(const TrainSettings& t) {
  return {{"epochs", t.epochs},
          {"batch", t.batch},
          {"lr", t.lr},
          {"weight_decay", t.adamw.weight_decay},
          {"schedule", t.schedule == LrSchedule::cosine ? "cosine" : "constant"},
          {"warmup_fraction", t.warmup_fraction},
          {"clip_norm", t.clip_norm},
          {"patience", t.patience},
          {"seed", t.seed}};
}

TrainSettings parse_train_settings(const json& t, const std::string& ts) {
  TrainSettings s;
  s.epochs = json_int(t, "epochs", ts, 1, 1000000);
  s.batch = json_int(t, "batch", ts, 1, 1 << 20);
  s.lr = json_number(t, "lr", ts, 0, 10);
  s.adamw.weight_decay = json_number(t, "weight_decay", ts, 0, 10);
  const std::string schedule = json_string(t, "schedule", ts);
  if (schedule != "cosine" && schedule != "constant") fail(ts, "field 'schedule' must be 'cosine' or 'constant'");
  s.schedule = schedule == "cosine" ? LrSchedule::cosine : LrSchedule::constant;
  s.warmup_fraction = json_number(t, "warmup_fraction", ts, 0, 1);
  s.clip_norm = json_number(t, "clip_norm", ts, 0, 1e9);
  s.patience = json_int(t, "patience", ts, 0, 1000000);
  s.seed = unsigned(json_number(t, "seed", ts, 0, 4294967295.0));
  return s;
}

json backbone_json(const ModelConfig& m) {
  return {{"kind", std::string(to_string(m.kind))},
          {"d_model", m.d_model},
          {"heads", m.heads},
          {"layers", m.layers},
          {"d_ff", m.d_ff}};
}

const json& parse_backbone(const json& root, const std::string& source, const std::string& ms, ModelConfig& model) {
  const json& m = json_section(root, "model", source);
  const std::string kind = json_string(m, "kind", ms);
  const auto parsed = model_kind_from_string(kind);
  if (!parsed) fail(ms, "field 'kind' must be 'aaren' or 'transformer', got '" + kind + "'");
  model.kind = *parsed;
  model.d_model = json_int(m, "d_model", ms, 1, 8192);
  model.heads = json_int(m, "heads", ms, 1, 1024);
  model.layers = json_int(m, "layers", ms, 1, 256);
  model.d_ff = json_int(m, "d_ff", ms, 1, 65536);
  return m;
}

json training_history_json(const TrainingHistory& h, const EpochFields& epoch_fields) {
  json epochs = json::array();
  for (const EpochRecord& e : h.epochs) {
    json epoch = {{"epoch", e.epoch}, {"train_loss", e.train_loss}, {"val_loss", e.val_loss}, {"seconds", e.seconds}};
    if (epoch_fields) epoch_fields(epoch, e);
    epochs.push_back(std::move(epoch));
  }
  return {{"epochs", epochs},
          {"best_epoch", h.best_epoch},
          {"stop", h.stop},
          {"message", h.message},
          {"train_seconds", h.train_seconds},
          {"samples_per_second", h.samples_per_second}};
}

json parse_training_history(std::string_view text, const std::string& source, TrainingHistory& h) {
  json root = parse_json_text(text, source);
  if (!root.is_object()) fail(source, "not a JSON object");
  const auto it = root.find("epochs");
  if (it == root.end() || !it->is_array()) fail(source, "field 'epochs' must be a list");
  for (const json& e : *it) {
    if (!e.is_object()) fail(source, "every entry of 'epochs' must be an object");
    h.epochs.push_back({json_int(e, "epoch", source, 1, 1 << 30), json_number(e, "train_loss", source, -1e300, 1e300),
                        json_number(e, "val_loss", source, -1e300, 1e300), json_number(e, "seconds", source, 0, 1e12)});
  }
  h.best_epoch = json_int(root, "best_epoch", source, 0, 1 << 30);
  h.stop = json_string(root, "stop", source);
  h.message = json_string(root, "message", source);
  h.train_seconds = json_number(root, "train_seconds", source, 0, 1e12);
  h.samples_per_second = json_number(root, "samples_per_second", source, 0, 1e15);
  return root;
}

void write_run_metrics_files(const std::string& dir, const json& metrics, const std::vector<EpochRecord>& epochs) {
  std::string csv = "epoch,train_loss,val_loss\n";
  for (const EpochRecord& e : epochs)
    csv += std::to_string(e.epoch) + "," + format_number(e.train_loss) + "," + format_number(e.val_loss) + "\n";
  write_file_atomically(run_file(dir, kRunMetricsFile), metrics.dump(2) + "\n");
  write_file_atomically(run_file(dir, kRunLossFile), csv);
}

std::string serialize_run_parameters(const ParameterLayout& layout, const std::vector<float>& params,
                                     CheckpointMetadata metadata, const std::string& model) {
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

std::vector<float> parse_run_parameters(std::string_view bytes, const std::string& source, const RunTask& task,
                                        int config_version, const ParameterLayout& layout,
                                        const CheckpointConfigCheck& check_config) {
  const SafetensorsContent content = parse_safetensors(bytes, source);
  const CheckpointMetadata& metadata = content.metadata;
  check_format(metadata, source);
  // Damage before provenance: changed values must not be explained as anything else. Version 1
  // checkpoints carry no checksum.
  if (metadata.contains("data_fnv1a64") || config_version >= 2) check_checksum(content, source);
  const int version = checkpoint_version(metadata, source, task, config_version);
  check_task(metadata, source, task);
  check_config(metadata, version);

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

const std::string& required_metadata(const CheckpointMetadata& metadata, const std::string& key,
                                     const std::string& source) {
  const auto it = metadata.find(key);
  if (it == metadata.end())
    fail(source, "the header's metadata has no '" + key + "' (a damaged header, or not a checkpoint of a run)");
  return it->second;
}

std::vector<std::string> backbone_differences(const ModelConfig& a, const ModelConfig& b) {
  std::vector<std::string> fields;
  if (a.kind != b.kind) fields.push_back("kind");
  if (a.d_model != b.d_model) fields.push_back("d_model");
  if (a.heads != b.heads) fields.push_back("heads");
  if (a.layers != b.layers) fields.push_back("layers");
  if (a.d_ff != b.d_ff) fields.push_back("d_ff");
  return fields;
}

void require_same_model(const std::string& source, const std::vector<std::string>& fields, const std::string& written,
                        const std::string& current) {
  if (!fields.empty())
    fail(source, "written for " + written + ", but this run's config.json describes " + current +
                     ": a model of another shape (" + differ(fields) + ")");
}

void require_same_preparation(const std::string& source, const std::vector<std::string>& fields) {
  if (!fields.empty())
    fail(source, "trained on data prepared otherwise than config.json describes (" + differ(fields) +
                     "): config.json belongs to a later run into this folder that stopped before it saved "
                     "a model; train again, or use another folder");
}

std::string count_of(int count, const char* noun) {
  const std::string_view name(noun);
  return std::to_string(count) + " " + noun + (count == 1 ? "" : name.ends_with('s') ? "es" : "s");
}

std::string differ(const std::vector<std::string>& fields) {
  std::string text;
  for (const std::string& field : fields) text += (text.empty() ? "" : ", ") + field;
  return text + (fields.size() == 1 ? " differs" : " differ");
}

}  // namespace aaren
