#include "core/events/event_run_folder.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/checksum.hpp"
#include "core/io/json_fields.hpp"
#include "core/io/matrix_csv.hpp"
#include "core/io/safetensors.hpp"
#include "core/io/text_file.hpp"
#include "core/model/parameter_layout.hpp"
#include "core/train/checkpoint.hpp"

namespace aaren {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Metadata = std::map<std::string, std::string>;

std::string join(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

const json& object_field(const json& obj, const char* field, const std::string& source) {
  const auto it = obj.find(field);
  if (it == obj.end() || !it->is_object()) fail(source, std::string("section '") + field + "' is missing or not an object");
  return *it;
}

template <class Enum, std::size_t N>
Enum enum_field(const json& obj, const char* field, const std::string& source, const Enum (&values)[N]) {
  const std::string text = json_string(obj, field, source);
  std::string allowed;
  for (const Enum value : values) {
    if (text == to_string(value)) return value;
    allowed += (allowed.empty() ? "'" : ", '") + std::string(to_string(value)) + "'";
  }
  fail(source, std::string("field '") + field + "' must be one of " + allowed + ", got '" + text + "'");
}

constexpr TimeUnit kTimeUnits[] = {TimeUnit::seconds, TimeUnit::minutes, TimeUnit::hours, TimeUnit::days,
                                   TimeUnit::years};
constexpr MarkUse kStoredMarkUses[] = {MarkUse::categorical, MarkUse::feature, MarkUse::none};
constexpr EventSplitMethod kSplitMethods[] = {EventSplitMethod::by_sequence, EventSplitMethod::by_time};

json training_json(const TrainSettings& t) {
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

TrainSettings parse_training(const json& t, const std::string& ts) {
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

// NaN (a mark metric of an unmarked model) is left out rather than written as null.
void put_number(json& obj, const char* field, double value) {
  if (!std::isnan(value)) obj[field] = value;
}

json eval_json(const EventEvalMetrics& m) {
  json out = {{"events", m.events}};
  put_number(out, "nll_per_event", m.nll_per_event);
  put_number(out, "time_nll_per_event", m.time_nll_per_event);
  put_number(out, "mark_nll_per_event", m.mark_nll_per_event);
  put_number(out, "rmse", m.rmse);
  put_number(out, "accuracy", m.accuracy);
  return out;
}

EventEvalMetrics parse_eval(const json& obj, const std::string& source) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  EventEvalMetrics m;
  m.events = json_int(obj, "events", source, 0, std::numeric_limits<int>::max());
  m.nll_per_event = json_number_or(obj, "nll_per_event", source, -1e300, 1e300, nan);
  m.time_nll_per_event = json_number_or(obj, "time_nll_per_event", source, -1e300, 1e300, nan);
  m.mark_nll_per_event = json_number_or(obj, "mark_nll_per_event", source, 0, 1e300, nan);
  m.rmse = json_number_or(obj, "rmse", source, 0, 1e300, nan);
  m.accuracy = json_number_or(obj, "accuracy", source, 0, 1, nan);
  return m;
}

std::string count_of(int count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string describe(const EventModelConfig& c) {
  const ModelConfig& b = c.backbone;
  return std::string(b.kind == ModelKind::aaren ? "an Aaren event model" : "a Transformer event model") +
         " with d_model " + std::to_string(b.d_model) + ", " + count_of(b.heads, "head") + ", " +
         count_of(b.layers, "layer") + ", d_ff " + std::to_string(b.d_ff) + ", window " + std::to_string(b.seq_len) +
         ", " + count_of(c.marks, "mark type") + ", " + count_of(c.mixture_components, "mixture component") + ", " +
         count_of(c.time_frequencies, "time frequency") + (c.feature ? " and a feature" : " and no feature");
}

std::string differ(const std::vector<std::string>& fields) {
  std::string text;
  for (const std::string& field : fields) text += (text.empty() ? "" : ", ") + field;
  return text + (fields.size() == 1 ? " differs" : " differ");
}

std::vector<std::string> model_differences(const EventModelConfig& a, const EventModelConfig& b) {
  std::vector<std::string> fields;
  if (a.backbone.kind != b.backbone.kind) fields.push_back("kind");
  if (a.backbone.d_model != b.backbone.d_model) fields.push_back("d_model");
  if (a.backbone.heads != b.backbone.heads) fields.push_back("heads");
  if (a.backbone.layers != b.backbone.layers) fields.push_back("layers");
  if (a.backbone.d_ff != b.backbone.d_ff) fields.push_back("d_ff");
  if (a.backbone.seq_len != b.backbone.seq_len) fields.push_back("window");
  if (a.marks != b.marks) fields.push_back("marks");
  if (a.mixture_components != b.mixture_components) fields.push_back("mixture components");
  if (a.time_frequencies != b.time_frequencies) fields.push_back("time frequencies");
  if (a.feature != b.feature) fields.push_back("feature");
  return fields;
}

// What the weights learned depends on besides the architecture; the data file's path and the
// training settings may differ (a moved file, a hand-edited epoch count).
std::vector<std::string> preparation_differences(const EventRunConfig& a, const EventRunConfig& b) {
  const EventDataPreparation &x = a.data, &y = b.data;
  std::vector<std::string> fields;
  if (x.time_column != y.time_column || x.time_is_date != y.time_is_date || x.date_unit != y.date_unit)
    fields.push_back("time column");
  if (x.decimal_mark != y.decimal_mark) fields.push_back("decimal mark");
  if (x.sequence_column != y.sequence_column) fields.push_back("sequence column");
  if (x.mark_column != y.mark_column || x.mark_use != y.mark_use) fields.push_back("mark column");
  if (x.mark_names != y.mark_names) fields.push_back("mark names");
  if (x.feature_mean != y.feature_mean || x.feature_std != y.feature_std) fields.push_back("feature scaling");
  if (x.split.train != y.split.train || x.split.validation != y.split.validation || x.split.test != y.split.test)
    fields.push_back("split");
  if (a.model.time_scale != b.model.time_scale) fields.push_back("time scale");
  return fields;
}

const std::string& required(const Metadata& metadata, const std::string& key, const std::string& source) {
  const auto it = metadata.find(key);
  if (it == metadata.end())
    fail(source, "the header's metadata has no '" + key + "' (a damaged header, or not a checkpoint of a run)");
  return it->second;
}

void check_event_checkpoint_provenance(const Metadata& metadata, const std::string& source,
                                       const EventRunConfig& config) {
  if (metadata.empty())
    fail(source, "the header has no metadata: not a checkpoint of an Aaren Studio run (another program wrote it?)");
  if (required(metadata, "format", source) != kRunFormat)
    fail(source, "not a checkpoint of an Aaren Studio run (its metadata says format '" + metadata.at("format") +
                     "', not '" + kRunFormat + "')");
  const std::string& version_text = required(metadata, "version", source);
  int version = 0;
  const auto [end, error] = std::from_chars(version_text.data(), version_text.data() + version_text.size(), version);
  if (error != std::errc() || end != version_text.data() + version_text.size() || version < 1)
    fail(source, "the metadata's 'version' must be a whole number, got '" + version_text + "' (a damaged header)");
  if (version > kRunFormatVersion)
    fail(source, "written by run format version " + version_text + ", a newer Aaren Studio: this one reads " +
                     std::to_string(kOldestEventRunFormatVersion) + " to " + std::to_string(kRunFormatVersion));
  if (version != config.version)
    fail(source, "written by run format version " + version_text + ", but config.json beside it is version " +
                     std::to_string(config.version) + ": the folder holds the files of two different runs");
  const auto task = metadata.find("task");
  if (task == metadata.end() || task->second != kEventRunTask)
    fail(source, "the checkpoint of a forecasting model, but config.json beside it describes an event model: the "
                 "folder holds the files of two different runs");

  const EventRunConfig written =
      parse_event_run_config(required(metadata, "config", source), source + " (its copy of config.json)");
  if (const std::vector<std::string> fields = model_differences(written.model, config.model); !fields.empty())
    fail(source, "written for " + describe(written.model) + ", but this run's config.json describes " +
                     describe(config.model) + ": a model of another shape (" + differ(fields) + ")");
  if (const std::vector<std::string> fields = preparation_differences(written, config); !fields.empty())
    fail(source, "trained on data prepared otherwise than config.json describes (" + differ(fields) +
                     "): config.json belongs to a later run into this folder that stopped before it saved a model; "
                     "train again, or use another folder");
}

EventRunMetrics parse_event_metrics(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  if (!root.is_object()) fail(source, "not a JSON object");
  EventRunMetrics m;
  const auto it = root.find("epochs");
  if (it == root.end() || !it->is_array()) fail(source, "field 'epochs' must be a list");
  for (const json& e : *it) {
    if (!e.is_object()) fail(source, "every entry of 'epochs' must be an object");
    m.epochs.push_back({json_int(e, "epoch", source, 1, 1 << 30), json_number(e, "train_loss", source, -1e300, 1e300),
                        json_number(e, "val_loss", source, -1e300, 1e300), json_number(e, "seconds", source, 0, 1e12)});
  }
  m.best_epoch = json_int(root, "best_epoch", source, 0, 1 << 30);
  m.stop = json_string(root, "stop", source);
  m.message = json_string(root, "message", source);
  m.validation = parse_eval(object_field(root, "validation", source), source + " (validation)");
  m.test = parse_eval(object_field(root, "test", source), source + " (test)");
  const json& poisson = object_field(root, "poisson_baseline", source);
  m.poisson_rate = json_number(poisson, "rate", source, 0, 1e300);
  m.poisson_test_nll_per_event = json_number_or(poisson, "test_time_nll_per_event", source, -1e300, 1e300,
                                                std::numeric_limits<double>::quiet_NaN());
  m.train_seconds = json_number(root, "train_seconds", source, 0, 1e12);
  m.samples_per_second = json_number(root, "samples_per_second", source, 0, 1e15);
  return m;
}

}  // namespace

std::string_view to_string(EventSplitMethod method) {
  return method == EventSplitMethod::by_time ? "by_time" : "by_sequence";
}

std::string event_run_config_json(const EventRunConfig& c) {
  const EventModelConfig& m = c.model;
  const EventDataPreparation& d = c.data;
  SplitSpec split;
  split.fractions = d.split;
  const json out = {
      {"format", kRunFormat},
      {"version", kRunFormatVersion},
      {"task", kEventRunTask},
      {"model",
       {{"kind", std::string(to_string(m.backbone.kind))}, {"d_model", m.backbone.d_model},
        {"heads", m.backbone.heads}, {"layers", m.backbone.layers}, {"d_ff", m.backbone.d_ff},
        {"window", m.backbone.seq_len}, {"marks", m.marks}, {"mixture_components", m.mixture_components},
        {"time_frequencies", m.time_frequencies}, {"feature", m.feature}, {"time_scale", m.time_scale}}},
      {"data",
       {{"file", d.data_file}, {"time_column", d.time_column}, {"time_is_date", d.time_is_date},
        {"date_unit", std::string(to_string(d.date_unit))}, {"time_unit", d.time_unit},
        {"decimal_mark", std::string(1, d.decimal_mark)},
        {"sequence_column", d.sequence_column}, {"mark_column", d.mark_column},
        {"mark_use", std::string(to_string(d.mark_use))}, {"mark_names", d.mark_names},
        {"feature_mean", d.feature_mean}, {"feature_std", d.feature_std}, {"split", to_string(split)},
        {"split_method", std::string(to_string(d.split_method))}}},
      {"training", training_json(c.train)},
  };
  return out.dump(2) + "\n";
}

EventRunConfig parse_event_run_config(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  if (!root.is_object()) fail(source, "not a JSON object");
  if (json_string_or(root, "format", source, "") != kRunFormat)
    fail(source, "not an Aaren Studio run configuration (field 'format' should be '" + std::string(kRunFormat) + "')");
  const std::string task = json_string_or(root, "task", source, "forecast");
  if (task != kEventRunTask)
    fail(source, (task == "forecast" ? std::string("a forecasting run") : "a run of task '" + task + "'") +
                     ", not an event-model run (its config.json has no 'task': 'events')");
  const int version = json_int(root, "version", source, 0, 1 << 20);
  if (version < kOldestEventRunFormatVersion || version > kRunFormatVersion)
    fail(source, "written by run format version " + std::to_string(version) + "; this Aaren Studio reads event runs of "
                     "versions " + std::to_string(kOldestEventRunFormatVersion) + " to " +
                     std::to_string(kRunFormatVersion));
  EventRunConfig c;
  c.version = version;

  const json& m = object_field(root, "model", source);
  const std::string ms = source + " (model)";
  const std::string kind = json_string(m, "kind", ms);
  const auto parsed = model_kind_from_string(kind);
  if (!parsed) fail(ms, "field 'kind' must be 'aaren' or 'transformer', got '" + kind + "'");
  EventModelConfig& model = c.model;
  model.backbone.kind = *parsed;
  model.backbone.d_model = json_int(m, "d_model", ms, 1, 8192);
  model.backbone.heads = json_int(m, "heads", ms, 1, 1024);
  model.backbone.layers = json_int(m, "layers", ms, 1, 256);
  model.backbone.d_ff = json_int(m, "d_ff", ms, 1, 65536);
  model.backbone.seq_len = json_int(m, "window", ms, 2, 1 << 20);
  model.marks = json_int(m, "marks", ms, 0, 1 << 16);
  model.mixture_components = json_int(m, "mixture_components", ms, 1, 256);
  model.time_frequencies = json_int(m, "time_frequencies", ms, 0, 30);
  model.feature = json_bool(m, "feature", ms);
  model.time_scale = json_number(m, "time_scale", ms, std::numeric_limits<double>::min(), 1e300);
  try {
    model.validate();
  } catch (const std::invalid_argument& e) {
    fail(ms, e.what());
  }

  const json& d = object_field(root, "data", source);
  const std::string ds = source + " (data)";
  EventDataPreparation& data = c.data;
  data.data_file = json_string(d, "file", ds);
  data.time_column = json_string(d, "time_column", ds);
  if (data.time_column.empty()) fail(ds, "field 'time_column' must name a column");
  data.time_is_date = json_bool(d, "time_is_date", ds);
  data.date_unit = enum_field(d, "date_unit", ds, kTimeUnits);
  data.decimal_mark = json_decimal_mark(d, ds);
  data.time_unit = json_string(d, "time_unit", ds);
  data.sequence_column = json_string(d, "sequence_column", ds);
  data.mark_column = json_string(d, "mark_column", ds);
  data.mark_use = enum_field(d, "mark_use", ds, kStoredMarkUses);
  data.mark_names = json_string_list(d, "mark_names", ds);
  data.feature_mean = json_number(d, "feature_mean", ds, -1e300, 1e300);
  data.feature_std = json_number(d, "feature_std", ds, std::numeric_limits<double>::min(), 1e300);
  try {
    const SplitSpec split = parse_split_spec(json_string(d, "split", ds));
    if (split.method != SplitSpec::Method::fractions) fail(ds, "field 'split' must be three fractions for an event log");
    data.split = split.fractions;
  } catch (const std::invalid_argument& e) {
    fail(ds, std::string("field 'split': ") + e.what());
  }
  data.split_method = enum_field(d, "split_method", ds, kSplitMethods);
  if ((data.mark_use == MarkUse::none) != data.mark_column.empty())
    fail(ds, "field 'mark_column' must name a column exactly when 'mark_use' is not 'none'");
  const bool categorical = data.mark_use == MarkUse::categorical;
  if (int(data.mark_names.size()) != (categorical ? model.marks : 0) || (categorical && model.marks == 0))
    fail(ds, std::to_string(data.mark_names.size()) + " mark names for a model of " + count_of(model.marks, "mark type") +
                 " with mark use '" + std::string(to_string(data.mark_use)) + "'");
  if (model.feature != (data.mark_use == MarkUse::feature))
    fail(ds, "mark use '" + std::string(to_string(data.mark_use)) + "' does not fit a model " +
                 (model.feature ? "that reads a feature" : "without a feature"));

  c.train = parse_training(object_field(root, "training", source), source + " (training)");
  return c;
}

std::string serialize_event_checkpoint(const EventRunConfig& config, const std::vector<float>& params) {
  return serialize_run_parameters(ParameterLayout::for_events(config.model), params,
                                  {{"task", kEventRunTask},
                                   {"model", std::string(to_string(config.model.backbone.kind))},
                                   {"config", event_run_config_json(config)}},
                                  "event model");
}

std::vector<float> parse_event_checkpoint(std::string_view bytes, const std::string& source,
                                          const EventRunConfig& config) {
  const SafetensorsContent content = parse_safetensors(bytes, source);
  // Damage before provenance: changed values must not be explained as anything else.
  if (const auto stored = content.metadata.find("data_fnv1a64"); stored != content.metadata.end()) {
    Fnv1a64 checksum;
    for (const Tensor& tensor : content.tensors) checksum.add_little_endian(tensor.data);
    if (checksum.hex() != stored->second)
      fail(source, "the tensor values do not match the checksum stored with them: the file was damaged after it was "
                   "written (train again, or restore it from a copy)");
  }
  check_event_checkpoint_provenance(content.metadata, source, config);
  required(content.metadata, "data_fnv1a64", source);

  const ParameterLayout layout = ParameterLayout::for_events(config.model);
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

void write_event_run_config(const std::string& dir, const EventRunConfig& config) {
  write_file_atomically(join(dir, "config.json"), event_run_config_json(config));
}

void write_event_checkpoint(const std::string& dir, const EventRunConfig& config, const std::vector<float>& params) {
  write_file_atomically(join(dir, "model.safetensors"), serialize_event_checkpoint(config, params));
}

void write_event_run_metrics(const std::string& dir, const EventRunConfig& config, const EventRunMetrics& m) {
  const double log_scale = std::log(config.model.time_scale);
  json epochs = json::array();
  std::string csv = "epoch,train_loss,val_loss\n";
  for (const EpochRecord& e : m.epochs) {
    epochs.push_back({{"epoch", e.epoch},
                      {"train_loss", e.train_loss},
                      {"val_loss", e.val_loss},
                      {"val_nll_per_event", e.val_loss + log_scale},
                      {"seconds", e.seconds}});
    csv += std::to_string(e.epoch) + "," + format_number(e.train_loss) + "," + format_number(e.val_loss) + "\n";
  }
  json poisson = {{"rate", m.poisson_rate}};
  put_number(poisson, "test_time_nll_per_event", m.poisson_test_nll_per_event);
  const json out = {{"task", kEventRunTask},
                    {"time_unit", config.data.time_unit},
                    {"epochs", epochs},
                    {"best_epoch", m.best_epoch},
                    {"stop", m.stop},
                    {"message", m.message},
                    {"validation", eval_json(m.validation)},
                    {"test", eval_json(m.test)},
                    {"poisson_baseline", poisson},
                    {"train_seconds", m.train_seconds},
                    {"samples_per_second", m.samples_per_second}};
  write_file_atomically(join(dir, "metrics.json"), out.dump(2) + "\n");
  write_file_atomically(join(dir, "loss.csv"), csv);
}

LoadedEventRun load_event_run(const std::string& dir) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": no such run folder");
  LoadedEventRun run;
  run.dir = dir;
  const std::string config_path = join(dir, "config.json");
  run.config = parse_event_run_config(read_text_file(config_path), config_path);
  const std::string model_path = join(dir, "model.safetensors");
  if (!fs::exists(model_path))
    throw std::runtime_error(model_path + ": missing (the run has not finished an epoch yet?)");
  run.params = parse_event_checkpoint(read_text_file(model_path), model_path, run.config);
  const std::string metrics_path = join(dir, "metrics.json");
  if (fs::exists(metrics_path)) {
    run.metrics = parse_event_metrics(read_text_file(metrics_path), metrics_path);
    run.has_metrics = true;
  }
  return run;
}

}  // namespace aaren
