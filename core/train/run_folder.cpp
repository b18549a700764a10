#include "core/train/run_folder.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/io/atomic_file.hpp"
#include "core/io/json_fields.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/io/text_file.hpp"
#include "core/train/checkpoint.hpp"

namespace aaren {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Every file a run folder holds; a reader opens these names only.
constexpr const char* kRunFiles[] = {"config.json", "model.safetensors", "metrics.json", "loss.csv"};

std::string join(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

const json& object_field(const json& obj, const char* field, const std::string& source) {
  const auto it = obj.find(field);
  if (it == obj.end() || !it->is_object())
    throw std::runtime_error(source + ": section '" + field + "' is missing or not an object");
  return *it;
}

std::vector<double> number_list(const json& obj, const char* field, const std::string& source, std::size_t count) {
  const auto it = obj.find(field);
  if (it == obj.end() || !it->is_array() || it->size() != count)
    throw std::runtime_error(source + ": field '" + field + "' must be a list of " + std::to_string(count) +
                             " numbers");
  std::vector<double> out;
  for (const auto& x : *it) {
    if (!x.is_number()) throw std::runtime_error(source + ": field '" + field + "' must hold numbers only");
    out.push_back(x.get<double>());
  }
  return out;
}

json epoch_json(const EpochRecord& e) {
  return {{"epoch", e.epoch}, {"train_loss", e.train_loss}, {"val_loss", e.val_loss}, {"seconds", e.seconds}};
}

}  // namespace

std::string run_config_json(const RunConfig& c) {
  const ModelConfig& m = c.model;
  const TrainSettings& t = c.train;
  json out = {
      {"format", kRunFormat},
      {"version", kRunFormatVersion},
      {"model",
       {{"kind", std::string(to_string(m.kind))}, {"d_model", m.d_model}, {"heads", m.heads}, {"layers", m.layers},
        {"d_ff", m.d_ff}, {"seq_len", m.seq_len}, {"horizon", m.horizon}, {"channels", m.channels}}},
      {"data",
       {{"file", c.data_file}, {"channels", c.channels}, {"target", c.target}, {"date_column", c.date_column},
        {"interpolate_missing", c.interpolate_missing}, {"decimal_mark", std::string(1, c.decimal_mark)},
        {"split", to_string(c.split)},
        {"scaler_mean", c.scaler.mean}, {"scaler_std", c.scaler.stddev}}},
      {"training",
       {{"epochs", t.epochs}, {"batch", t.batch}, {"lr", t.lr}, {"weight_decay", t.adamw.weight_decay},
        {"schedule", t.schedule == LrSchedule::cosine ? "cosine" : "constant"},
        {"warmup_fraction", t.warmup_fraction}, {"clip_norm", t.clip_norm}, {"patience", t.patience},
        {"seed", t.seed}}},
  };
  return out.dump(2) + "\n";
}

RunConfig parse_run_config(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  if (!root.is_object()) throw std::runtime_error(source + ": not a JSON object");
  if (json_string_or(root, "format", source, "") != kRunFormat)
    throw std::runtime_error(source + ": not an Aaren Studio run configuration (field 'format' should be '" +
                             std::string(kRunFormat) + "')");
  // Forecasting runs carry no 'task'; event-model runs (core/events/event_run_folder.hpp) say "events".
  if (const std::string task = json_string_or(root, "task", source, "forecast"); task != "forecast")
    throw std::runtime_error(source + ": " +
                             (task == "events" ? std::string("an event-model run") : "a run of task '" + task + "'") +
                             ", not a forecasting run");
  const int version = json_int(root, "version", source, 0, 1 << 20);
  if (version < kOldestRunFormatVersion || version > kRunFormatVersion)
    throw std::runtime_error(source + ": written by run format version " + std::to_string(version) +
                             "; this Aaren Studio reads versions " + std::to_string(kOldestRunFormatVersion) +
                             " to " + std::to_string(kRunFormatVersion));
  RunConfig c;
  c.version = version;
  const json& m = object_field(root, "model", source);
  const std::string ms = source + " (model)";
  const std::string kind = json_string(m, "kind", ms);
  const auto parsed = model_kind_from_string(kind);
  if (!parsed) throw std::runtime_error(ms + ": field 'kind' must be 'aaren' or 'transformer', got '" + kind + "'");
  c.model.kind = *parsed;
  c.model.d_model = json_int(m, "d_model", ms, 1, 8192);
  c.model.heads = json_int(m, "heads", ms, 1, 1024);
  c.model.layers = json_int(m, "layers", ms, 1, 256);
  c.model.d_ff = json_int(m, "d_ff", ms, 1, 65536);
  c.model.seq_len = json_int(m, "seq_len", ms, 1, 1 << 20);
  c.model.horizon = json_int(m, "horizon", ms, 1, 1 << 16);
  c.model.channels = json_int(m, "channels", ms, 1, 4096);
  try {
    c.model.validate();
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(ms + ": " + e.what());
  }

  const json& d = object_field(root, "data", source);
  const std::string ds = source + " (data)";
  c.data_file = json_string(d, "file", ds);
  c.channels = json_string_list(d, "channels", ds);
  if (int(c.channels.size()) != c.model.channels)
    throw std::runtime_error(ds + ": " + std::to_string(c.channels.size()) + " channel names for a model of " +
                             std::to_string(c.model.channels) + " channels");
  c.target = json_string(d, "target", ds);
  c.date_column = json_string(d, "date_column", ds);
  c.interpolate_missing = json_bool(d, "interpolate_missing", ds);
  c.decimal_mark = json_decimal_mark(d, ds);
  try {
    c.split = parse_split_spec(json_string(d, "split", ds));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(ds + ": field 'split': " + e.what());
  }
  c.scaler.mean = number_list(d, "scaler_mean", ds, c.channels.size());
  c.scaler.stddev = number_list(d, "scaler_std", ds, c.channels.size());
  for (double s : c.scaler.stddev)
    if (!(s > 0)) throw std::runtime_error(ds + ": field 'scaler_std' must hold positive numbers");

  const json& t = object_field(root, "training", source);
  const std::string ts = source + " (training)";
  c.train.epochs = json_int(t, "epochs", ts, 1, 1000000);
  c.train.batch = json_int(t, "batch", ts, 1, 1 << 20);
  c.train.lr = json_number(t, "lr", ts, 0, 10);
  c.train.adamw.weight_decay = json_number(t, "weight_decay", ts, 0, 10);
  const std::string schedule = json_string(t, "schedule", ts);
  if (schedule != "cosine" && schedule != "constant")
    throw std::runtime_error(ts + ": field 'schedule' must be 'cosine' or 'constant'");
  c.train.schedule = schedule == "cosine" ? LrSchedule::cosine : LrSchedule::constant;
  c.train.warmup_fraction = json_number(t, "warmup_fraction", ts, 0, 1);
  c.train.clip_norm = json_number(t, "clip_norm", ts, 0, 1e9);
  c.train.patience = json_int(t, "patience", ts, 0, 1000000);
  c.train.seed = unsigned(json_number(t, "seed", ts, 0, 4294967295.0));
  return c;
}

void prepare_run_folder(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create the run folder (" + ec.message() + ")");
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": exists and is not a folder");
  if (::access(dir.c_str(), W_OK) != 0)
    throw std::runtime_error(dir + ": cannot write into the run folder (" + std::strerror(errno) + ")");
  for (const char* name : kRunFiles) remove_stale_temporary_files(join(dir, name));
}

void write_run_config(const std::string& dir, const RunConfig& config) {
  write_file_atomically(join(dir, "config.json"), run_config_json(config));
}

void write_checkpoint(const std::string& dir, const RunConfig& config, const std::vector<float>& params) {
  write_file_atomically(join(dir, "model.safetensors"), serialize_checkpoint(config, params));
}

void write_run_metrics(const std::string& dir, const RunMetrics& m) {
  json epochs = json::array();
  std::string csv = "epoch,train_loss,val_loss\n";
  for (const EpochRecord& e : m.epochs) {
    epochs.push_back(epoch_json(e));
    csv += std::to_string(e.epoch) + "," + format_number(e.train_loss) + "," + format_number(e.val_loss) + "\n";
  }
  const json out = {{"epochs", epochs},
                    {"best_epoch", m.best_epoch},
                    {"stop", m.stop},
                    {"message", m.message},
                    {"validation", {{"mse", m.validation.mse}, {"mae", m.validation.mae}, {"windows", m.validation.windows}}},
                    {"test", {{"mse", m.test.mse}, {"mae", m.test.mae}, {"windows", m.test.windows}}},
                    {"train_seconds", m.train_seconds},
                    {"samples_per_second", m.samples_per_second},
                    {"device", m.device}};
  write_file_atomically(join(dir, "metrics.json"), out.dump(2) + "\n");
  write_file_atomically(join(dir, "loss.csv"), csv);
}

namespace {

RunMetrics parse_metrics(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  if (!root.is_object()) throw std::runtime_error(source + ": not a JSON object");
  RunMetrics m;
  const auto it = root.find("epochs");
  if (it == root.end() || !it->is_array()) throw std::runtime_error(source + ": field 'epochs' must be a list");
  for (const json& e : *it) {
    if (!e.is_object()) throw std::runtime_error(source + ": every entry of 'epochs' must be an object");
    m.epochs.push_back({json_int(e, "epoch", source, 1, 1 << 30), json_number(e, "train_loss", source, -1e300, 1e300),
                        json_number(e, "val_loss", source, -1e300, 1e300), json_number(e, "seconds", source, 0, 1e12)});
  }
  m.best_epoch = json_int(root, "best_epoch", source, 0, 1 << 30);
  m.stop = json_string(root, "stop", source);
  m.message = json_string(root, "message", source);
  for (auto [name, metrics] : {std::pair{"validation", &m.validation}, std::pair{"test", &m.test}}) {
    const json& part = object_field(root, name, source);
    metrics->mse = json_number(part, "mse", source, 0, 1e300);
    metrics->mae = json_number(part, "mae", source, 0, 1e300);
    metrics->windows = json_int(part, "windows", source, 0, 1 << 30);
  }
  m.train_seconds = json_number(root, "train_seconds", source, 0, 1e12);
  m.samples_per_second = json_number(root, "samples_per_second", source, 0, 1e15);
  m.device = json_string_or(root, "device", source, "cpu");  // runs from before the GPU backend
  return m;
}

}  // namespace

LoadedRun load_run(const std::string& dir) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": no such run folder");
  LoadedRun run;
  run.dir = dir;
  const std::string config_path = join(dir, "config.json");
  run.config = parse_run_config(read_text_file(config_path), config_path);
  const std::string model_path = join(dir, "model.safetensors");
  if (!fs::exists(model_path))
    throw std::runtime_error(model_path + ": missing (the run has not finished an epoch yet?)");
  run.params = parse_checkpoint(read_text_file(model_path), model_path, run.config);
  const std::string metrics_path = join(dir, "metrics.json");
  if (fs::exists(metrics_path)) {
    run.metrics = parse_metrics(read_text_file(metrics_path), metrics_path);
    run.has_metrics = true;
  }
  return run;
}

}  // namespace aaren
