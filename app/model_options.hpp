#pragma once
// The architecture options shared by `aaren params`, `aaren train` and the benchmarks.
#include <optional>
#include <set>
#include <string>

#include "app/cli_args.hpp"
#include "core/model/model_config.hpp"

namespace aaren::cli {

inline const std::set<std::string> kModelOptions = {"model", "d-model", "heads", "layers", "d-ff", "seq-len", "horizon"};

inline const char* const kModelOptionsHelp =
    "  --model aaren|transformer   the token mixer (default aaren)\n"
    "  --seq-len T                 look-back window (default 96)\n"
    "  --horizon H                 forecast length (default 96)\n"
    "  --d-model D                 width (default 64)\n"
    "  --heads N                   attention heads, dividing d-model (default 4)\n"
    "  --layers L                  blocks (default 2)\n"
    "  --d-ff F                    hidden width of the feed-forward layer (default 256)\n";

// kModelOptionsHelp without its --model line, for a command that offers other models (--model both).
inline std::string architecture_options_help() {
  const std::string all = kModelOptionsHelp;
  return all.substr(all.find('\n') + 1);
}

// Reads the options above; `channels` comes from the data. `kind`, when given, is the mixer instead
// of --model's (a command that trains several, as --model both does, reads --model itself).
inline ModelConfig model_config_from(const Args& args, int channels, std::optional<ModelKind> kind = std::nullopt) {
  ModelConfig c;
  if (!kind) {
    const std::string text = args.text("model", "aaren");
    kind = model_kind_from_string(text);
    if (!kind) throw UsageError("--model must be aaren or transformer, got '" + text + "'");
  }
  c.kind = *kind;
  c.seq_len = int(args.integer("seq-len", c.seq_len, 1, 1 << 20));
  c.horizon = int(args.integer("horizon", c.horizon, 1, 1 << 16));
  c.d_model = int(args.integer("d-model", c.d_model, 1, 8192));
  c.heads = int(args.integer("heads", c.heads, 1, 1024));
  c.layers = int(args.integer("layers", c.layers, 1, 256));
  c.d_ff = int(args.integer("d-ff", c.d_ff, 1, 65536));
  c.channels = channels;
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return c;
}

}  // namespace aaren::cli
