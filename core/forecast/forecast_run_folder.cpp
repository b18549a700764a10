#include "core/forecast/forecast_run_folder.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/io/atomic_file.hpp"
#include "core/io/json_fields.hpp"
#include "core/forecast/forecast_checkpoint.hpp"

namespace aaren {

using nlohmann::json;

namespace {

json eval_json(const EvalMetrics& m) {
  json out = {{"mse", m.mse}, {"mae", m.mae}, {"windows", m.windows}};
  if (!m.channel_mse.empty()) out.update({{"channel_mse", m.channel_mse}, {"channel_mae", m.channel_mae}});
  return out;
}

// A list of non-negative numbers, empty when the field is absent (metrics written before it).
std::vector<double> optional_error_list(const json& obj, const char* field, const std::string& source) {
  const auto it = obj.find(field);
  if (it == obj.end()) return {};
  if (!it->is_array()) throw std::runtime_error(source + ": field '" + field + "' must be a list of numbers");
  std::vector<double> out;
  for (const auto& x : *it) {
    if (!x.is_number() || !(x.get<double>() >= 0))
      throw std::runtime_error(source + ": field '" + field + "' must hold numbers that are not negative");
    out.push_back(x.get<double>());
  }
  return out;
}

EvalMetrics parse_eval(const json& part, const std::string& source) {
  EvalMetrics m;
  m.mse = json_number(part, "mse", source, 0, 1e300);
  m.mae = json_number(part, "mae", source, 0, 1e300);
  m.windows = json_int(part, "windows", source, 0, 1 << 30);
  m.channel_mse = optional_error_list(part, "channel_mse", source);
  m.channel_mae = optional_error_list(part, "channel_mae", source);
  if (m.channel_mse.size() != m.channel_mae.size())
    throw std::runtime_error(source + ": fields 'channel_mse' and 'channel_mae' must have one number per channel each");
  return m;
}

json units_json(const UnitMetrics& m) { return {{"scaled", eval_json(m.scaled)}, {"original", eval_json(m.original)}}; }

UnitMetrics parse_units(const json& part, const std::string& source) {
  return {parse_eval(json_section(part, "scaled", source), source),
          parse_eval(json_section(part, "original", source), source)};
}

// metrics.json's "test_comparison" (docs/DESIGN.md section 9).
json comparison_json(const TestComparison& c) {
  json out = {{"model", units_json(c.model)}, {"last_value", units_json(c.last_value)}};
  if (c.seasonal_naive) out["seasonal_naive"] = units_json(*c.seasonal_naive);
  out["seasonal_period"] = {{"length", c.period.length}, {"source", c.period.source}, {"note", c.period.note}};
  return out;
}

TestComparison parse_comparison(const json& part, const std::string& source) {
  TestComparison c;
  c.model = parse_units(json_section(part, "model", source), source);
  c.last_value = parse_units(json_section(part, "last_value", source), source);
  const json& period = json_section(part, "seasonal_period", source);
  c.period.length = json_int(period, "length", source, 0, 1 << 30);
  c.period.source = json_string(period, "source", source);
  c.period.note = json_string(period, "note", source);
  if (part.contains("seasonal_naive")) c.seasonal_naive = parse_units(json_section(part, "seasonal_naive", source), source);
  if (c.seasonal_naive.has_value() != c.period.found())
    throw std::runtime_error(source + ": 'seasonal_naive' must be given exactly when 'seasonal_period' has a length");
  return c;
}

// config.json's forecasting fields of the "model" section, after the backbone.
void read_forecast_model(const json& m, const std::string& ms, ForecastRunConfig& c) {
  c.model.seq_len = json_int(m, "seq_len", ms, 1, 1 << 20);
  c.model.horizon = json_int(m, "horizon", ms, 1, 1 << 16);
  c.model.channels = json_int(m, "channels", ms, 1, 4096);
}

// config.json's "features" (M where absent: runs written before the choice), checked against the
// channels and the target; MS sets the model's target channel.
void read_forecast_features(const json& d, const std::string& ds, ForecastRunConfig& c) {
  const std::string text = json_string_or(d, "features", ds, "M");
  const std::optional<ForecastFeatures> features = forecast_features_from_string(text);
  if (!features)
    throw std::runtime_error(ds + ": field 'features' must be " + kForecastFeaturesNames + ", got '" + text +
                             "' (written by a newer Aaren Studio?)");
  c.features = *features;
  if (!needs_target(c.features)) return;
  const auto at = std::find(c.channels.begin(), c.channels.end(), c.target);
  if (c.target.empty() || at == c.channels.end())
    throw std::runtime_error(ds + ": features " + text + " forecast the target, but the target '" + c.target +
                             "' is not one of the channels");
  if (c.features == ForecastFeatures::S && c.channels.size() != 1)
    throw std::runtime_error(ds + ": features S read the target alone, but " + std::to_string(c.channels.size()) +
                             " channels are listed");
  if (c.features == ForecastFeatures::MS) c.model.target_channel = int(at - c.channels.begin());
}

// config.json's "data" section: how the time series was prepared.
void read_forecast_data(const json& d, const std::string& ds, ForecastRunConfig& c) {
  c.data_file = json_string(d, "file", ds);
  c.channels = json_string_list(d, "channels", ds);
  if (int(c.channels.size()) != c.model.channels)
    throw std::runtime_error(ds + ": " + std::to_string(c.channels.size()) + " channel names for a model of " +
                             std::to_string(c.model.channels) + " channels");
  c.target = json_string(d, "target", ds);
  read_forecast_features(d, ds, c);
  c.date_column = json_string(d, "date_column", ds);
  c.interpolate_missing = json_bool(d, "interpolate_missing", ds);
  c.decimal_mark = json_decimal_mark(d, ds);
  try {
    c.split = parse_split_spec(json_string(d, "split", ds));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(ds + ": field 'split': " + e.what());
  }
  c.scaler.mean = json_number_list(d, "scaler_mean", ds, c.channels.size());
  c.scaler.stddev = json_number_list(d, "scaler_std", ds, c.channels.size());
  for (double s : c.scaler.stddev)
    if (!(s > 0)) throw std::runtime_error(ds + ": field 'scaler_std' must hold positive numbers");
}

}  // namespace

std::vector<std::string> ForecastRunConfig::forecast_channels() const {
  if (model.target_channel < 0) return channels;
  return {channels.at(std::size_t(model.target_channel))};
}

std::string run_config_json(const ForecastRunConfig& c) {
  const ModelConfig& m = c.model;
  json model = backbone_json(m);
  model.update({{"seq_len", m.seq_len}, {"horizon", m.horizon}, {"channels", m.channels}});
  const json data = {{"file", c.data_file}, {"channels", c.channels}, {"target", c.target},
                     {"features", std::string(to_string(c.features))}, {"date_column", c.date_column}, {"interpolate_missing", c.interpolate_missing},
                     {"decimal_mark", std::string(1, c.decimal_mark)}, {"split", to_string(c.split)},
                     {"scaler_mean", c.scaler.mean}, {"scaler_std", c.scaler.stddev}};
  return run_config_text(kForecastingRuns, model, data, c.train);
}

ForecastRunConfig parse_run_config(std::string_view text, const std::string& source) {
  return parse_task_run_config<ForecastRunConfig>(
      text, source, kForecastingRuns, [](ForecastRunConfig& c) -> ModelConfig& { return c.model; }, read_forecast_model,
      read_forecast_data);
}

void write_run_config(const std::string& dir, const ForecastRunConfig& config) {
  write_file_atomically(run_file(dir, kRunConfigFile), run_config_json(config));
}

void write_forecast_checkpoint(const std::string& dir, const ForecastRunConfig& config, const std::vector<float>& params) {
  write_file_atomically(run_file(dir, kRunCheckpointFile), serialize_checkpoint(config, params));
}

void write_run_metrics(const std::string& dir, const ForecastRunMetrics& m) {
  json out = training_history_json(m);
  out.update({{"validation", eval_json(m.validation)}, {"test", eval_json(m.test)}, {"device", m.device}});
  if (m.test_comparison) out["test_comparison"] = comparison_json(*m.test_comparison);
  write_run_metrics_files(dir, out, m.epochs);
}

ForecastRunMetrics parse_run_metrics(std::string_view text, const std::string& source) {
  ForecastRunMetrics m;
  const json root = parse_training_history(text, source, m);
  for (auto [name, metrics] : {std::pair{"validation", &m.validation}, std::pair{"test", &m.test}})
    *metrics = parse_eval(json_section(root, name, source), source);
  m.device = json_string_or(root, "device", source, "cpu");  // runs from before the GPU backend
  // Runs from before the comparison with the naive baselines have none.
  if (root.contains("test_comparison")) m.test_comparison = parse_comparison(json_section(root, "test_comparison", source), source);
  return m;
}

LoadedForecastRun load_forecast_run(const std::string& dir) {
  return load_run_folder<ForecastRunConfig, ForecastRunMetrics>(dir, parse_run_config, parse_forecast_checkpoint, parse_run_metrics);
}

}  // namespace aaren
