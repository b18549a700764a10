#include "core/forecast/forecast_checkpoint.hpp"

#include <stdexcept>

#include "core/model/parameter_layout.hpp"

namespace aaren {

namespace {

std::string describe(const ModelConfig& m) {
  return model_noun_phrase(m.kind, m.kind == ModelKind::aaren ? "model" : "") + " with d_model " +
         std::to_string(m.d_model) + ", " + count_of(m.heads, "head") + ", " + count_of(m.layers, "layer") +
         ", d_ff " + std::to_string(m.d_ff) + ", look-back " + std::to_string(m.seq_len) + ", horizon " +
         std::to_string(m.horizon) + " and " + count_of(m.channels, "channel") +
         (m.target_channel < 0 ? "" : ", forecasting channel " + std::to_string(m.target_channel) + " alone");
}

std::vector<std::string> model_differences(const ModelConfig& a, const ModelConfig& b) {
  std::vector<std::string> fields = backbone_differences(a, b);
  if (a.seq_len != b.seq_len) fields.push_back("look-back");
  if (a.horizon != b.horizon) fields.push_back("horizon");
  if (a.channels != b.channels) fields.push_back("channels");
  if (a.target_channel != b.target_channel) fields.push_back("forecast channel");
  return fields;
}

// What the weights learned depends on besides the architecture; the data file's path and the
// training settings may differ (a moved file, a hand-edited epoch count).
std::vector<std::string> preparation_differences(const ForecastRunConfig& a, const ForecastRunConfig& b) {
  std::vector<std::string> fields;
  if (a.channels != b.channels) fields.push_back("channel list");
  if (a.target != b.target) fields.push_back("target");
  if (a.features != b.features) fields.push_back("features");
  if (a.date_column != b.date_column) fields.push_back("date column");
  if (a.interpolate_missing != b.interpolate_missing) fields.push_back("gap filling");
  if (a.decimal_mark != b.decimal_mark) fields.push_back("decimal mark");
  if (to_string(a.split) != to_string(b.split)) fields.push_back("split");
  if (a.scaler.mean != b.scaler.mean || a.scaler.stddev != b.scaler.stddev) fields.push_back("scaler");
  return fields;
}

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

// Version 1 checkpoints name only the kind of model; later ones carry the config.json they were
// written with.
void check_written_for(const CheckpointMetadata& metadata, int version, const std::string& source,
                       const ForecastRunConfig& config) {
  const std::string kind(to_string(config.model.kind));
  if (version == 1) {
    if (required_metadata(metadata, "model", source) != kind)
      fail(source, "written for a model of kind '" + metadata.at("model") + "', but this run's config.json describes " +
                       describe(config.model));
    return;
  }
  required_metadata(metadata, "written_by", source);
  const ForecastRunConfig written =
      parse_run_config(required_metadata(metadata, "config", source), source + " (its copy of config.json)");
  require_same_model(source, model_differences(written.model, config.model), describe(written.model),
                     describe(config.model));
  if (required_metadata(metadata, "model", source) != kind)
    fail(source, "the metadata's 'model' says '" + metadata.at("model") + "' but its copy of config.json says '" +
                     kind + "' (a damaged header)");
  require_same_preparation(source, preparation_differences(written, config));
}

}  // namespace

std::string serialize_checkpoint(const ForecastRunConfig& config, const std::vector<float>& params) {
  return serialize_run_parameters(ParameterLayout(config.model), params,
                                  {{"model", std::string(to_string(config.model.kind))},
                                   {"config", run_config_json(config)}},
                                  "model");
}

std::vector<float> parse_forecast_checkpoint(std::string_view bytes, const std::string& source, const ForecastRunConfig& config) {
  return parse_run_parameters(bytes, source, kForecastingRuns, config.version, ParameterLayout(config.model),
                              [&](const CheckpointMetadata& metadata, int version) {
                                check_written_for(metadata, version, source, config);
                              });
}

}  // namespace aaren
