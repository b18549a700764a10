#include "core/events/event_run_folder.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/io/atomic_file.hpp"
#include "core/io/json_fields.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
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

json eval_json(const EventEvalMetrics& m) {
  json out = {{"events", m.events}};
  json_put_measured(out, "nll_per_event", m.nll_per_event);
  json_put_measured(out, "time_nll_per_event", m.time_nll_per_event);
  json_put_measured(out, "mark_nll_per_event", m.mark_nll_per_event);
  json_put_measured(out, "rmse", m.rmse);
  json_put_measured(out, "accuracy", m.accuracy);
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

std::string describe(const EventModelConfig& c) {
  const ModelConfig& b = c.backbone;
  return model_noun_phrase(b.kind, "event model") +
         " with d_model " + std::to_string(b.d_model) + ", " + count_of(b.heads, "head") + ", " +
         count_of(b.layers, "layer") + ", d_ff " + std::to_string(b.d_ff) + ", window " + std::to_string(b.seq_len) +
         ", " + count_of(c.marks, "mark type") + ", " + count_of(c.mixture_components, "mixture component") + ", " +
         count_of(c.time_frequencies, "time frequency") + (c.feature ? " and a feature" : " and no feature");
}

std::vector<std::string> model_differences(const EventModelConfig& a, const EventModelConfig& b) {
  std::vector<std::string> fields = backbone_differences(a.backbone, b.backbone);
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

// Whether the checkpoint was written for the run config.json describes: the config it carries
// must describe the same model trained on data prepared the same way.
void check_written_for(const CheckpointMetadata& metadata, const std::string& source, const EventRunConfig& config) {
  const EventRunConfig written =
      parse_event_run_config(required_metadata(metadata, "config", source), source + " (its copy of config.json)");
  require_same_model(source, model_differences(written.model, config.model), describe(written.model),
                     describe(config.model));
  require_same_preparation(source, preparation_differences(written, config));
}

// config.json's event-model fields of the "model" section, after the backbone.
void read_event_model(const json& m, const std::string& ms, EventRunConfig& c) {
  EventModelConfig& model = c.model;
  model.backbone.seq_len = json_int(m, "window", ms, 2, 1 << 20);
  model.marks = json_int(m, "marks", ms, 0, 1 << 16);
  model.mixture_components = json_int(m, "mixture_components", ms, 1, 256);
  model.time_frequencies = json_int(m, "time_frequencies", ms, 0, 30);
  model.feature = json_bool(m, "feature", ms);
  model.time_scale = json_number(m, "time_scale", ms, std::numeric_limits<double>::min(), 1e300);
}

// config.json's "data" section: how the event log was prepared.
void read_event_data(const json& d, const std::string& ds, EventRunConfig& c) {
  const EventModelConfig& model = c.model;
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
}

}  // namespace

EventRunMetrics parse_event_run_metrics(std::string_view text, const std::string& source) {
  EventRunMetrics m;
  const json root = parse_training_history(text, source, m);
  m.validation = parse_eval(json_section(root, "validation", source), source + " (validation)");
  m.test = parse_eval(json_section(root, "test", source), source + " (test)");
  const json& poisson = json_section(root, "poisson_baseline", source);
  m.poisson_rate = json_number(poisson, "rate", source, 0, 1e300);
  m.poisson_test_nll_per_event = json_number_or(poisson, "test_time_nll_per_event", source, -1e300, 1e300,
                                                std::numeric_limits<double>::quiet_NaN());
  return m;
}

std::string_view to_string(EventSplitMethod method) {
  return method == EventSplitMethod::by_time ? "by_time" : "by_sequence";
}

std::string event_run_config_json(const EventRunConfig& c) {
  const EventModelConfig& m = c.model;
  const EventDataPreparation& d = c.data;
  SplitSpec split;
  split.fractions = d.split;
  json model = backbone_json(m.backbone);
  model.update({{"window", m.backbone.seq_len}, {"marks", m.marks}, {"mixture_components", m.mixture_components},
                {"time_frequencies", m.time_frequencies}, {"feature", m.feature}, {"time_scale", m.time_scale}});
  const json data = {{"file", d.data_file}, {"time_column", d.time_column}, {"time_is_date", d.time_is_date},
                     {"date_unit", std::string(to_string(d.date_unit))}, {"time_unit", d.time_unit},
                     {"decimal_mark", std::string(1, d.decimal_mark)},
                     {"sequence_column", d.sequence_column}, {"mark_column", d.mark_column},
                     {"mark_use", std::string(to_string(d.mark_use))}, {"mark_names", d.mark_names},
                     {"feature_mean", d.feature_mean}, {"feature_std", d.feature_std}, {"split", to_string(split)},
                     {"split_method", std::string(to_string(d.split_method))}};
  return run_config_text(kEventModelRuns, model, data, c.train);
}

EventRunConfig parse_event_run_config(std::string_view text, const std::string& source) {
  return parse_task_run_config<EventRunConfig>(
      text, source, kEventModelRuns, [](EventRunConfig& c) -> ModelConfig& { return c.model.backbone; },
      read_event_model, read_event_data);
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
  const auto check_config = [&](const CheckpointMetadata& metadata, int) {
    check_written_for(metadata, source, config);
  };
  return parse_run_parameters(bytes, source, kEventModelRuns, config.version, ParameterLayout::for_events(config.model),
                              check_config);
}

void write_event_run_config(const std::string& dir, const EventRunConfig& config) {
  write_file_atomically(run_file(dir, kRunConfigFile), event_run_config_json(config));
}

void write_event_checkpoint(const std::string& dir, const EventRunConfig& config, const std::vector<float>& params) {
  write_file_atomically(run_file(dir, kRunCheckpointFile), serialize_event_checkpoint(config, params));
}

void write_event_run_metrics(const std::string& dir, const EventRunConfig& config, const EventRunMetrics& m) {
  const double log_scale = std::log(config.model.time_scale);
  json out = training_history_json(
      m, [&](json& epoch, const EpochRecord& e) { epoch["val_nll_per_event"] = e.val_loss + log_scale; });
  json poisson = {{"rate", m.poisson_rate}};
  json_put_measured(poisson, "test_time_nll_per_event", m.poisson_test_nll_per_event);
  out.update({{"task", kEventRunTask},
              {"time_unit", config.data.time_unit},
              {"validation", eval_json(m.validation)},
              {"test", eval_json(m.test)},
              {"poisson_baseline", poisson}});
  write_run_metrics_files(dir, out, m.epochs);
}

LoadedEventRun load_event_run(const std::string& dir) {
  return load_run_folder<EventRunConfig, EventRunMetrics>(dir, parse_event_run_config, parse_event_checkpoint,
                                                          parse_event_run_metrics);
}

}  // namespace aaren
