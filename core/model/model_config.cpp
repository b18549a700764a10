#include "core/model/model_config.hpp"

#include <stdexcept>

namespace aaren {

std::string_view to_string(ModelKind kind) {
  switch (kind) {
    case ModelKind::aaren: return "aaren";
    case ModelKind::transformer: return "transformer";
    case ModelKind::linear: return "linear";
  }
  return "unknown";
}

std::optional<ModelKind> model_kind_from_string(std::string_view name) {
  for (const ModelKind kind : kModelKinds)
    if (name == to_string(kind)) return kind;
  return std::nullopt;
}

std::string_view model_name(ModelKind kind) {
  switch (kind) {
    case ModelKind::aaren: return "Aaren";
    case ModelKind::transformer: return "Transformer";
    case ModelKind::linear: return "linear Transformer";
  }
  return "unknown";
}

std::string model_noun_phrase(ModelKind kind, std::string_view noun) {
  std::string phrase(kind == ModelKind::aaren ? "an " : "a ");
  phrase += model_name(kind);
  if (!noun.empty()) phrase += " " + std::string(noun);
  return phrase;
}

void ModelConfig::validate() const {
  const auto require = [](bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument(message);
  };
  const auto positive = [&](int value, const char* name, int max_value) {
    require(value >= 1 && value <= max_value, std::string(name) + " must be between 1 and " +
                                                  std::to_string(max_value) + ", got " + std::to_string(value));
  };
  positive(d_model, "d_model", 8192);
  positive(heads, "heads", 1024);
  positive(layers, "layers", 256);
  positive(d_ff, "d_ff", 65536);
  positive(seq_len, "seq_len (look-back)", 1 << 20);
  positive(horizon, "horizon", 1 << 16);
  positive(channels, "channels", 4096);
  require(target_channel >= -1 && target_channel < channels,
          "the target channel " + std::to_string(target_channel) + " is not one of the " + std::to_string(channels) +
              " channels");
  require(d_model % heads == 0, "heads " + std::to_string(heads) + " does not divide d_model " +
                                    std::to_string(d_model) + " (each head gets d_model / heads dimensions)");
}

}  // namespace aaren
