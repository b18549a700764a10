// aaren params: every parameter of a model configuration, by name and shape, with the totals.
#include <cstdio>
#include <memory>

#include "app/commands.hpp"
#include "core/model/parameter_layout.hpp"

namespace aaren::cli {

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

std::string grouped(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

struct ParamsOptions {
  ModelConfig config;
  std::string model = "aaren";
  bool summary = false;
};

int print_params(ParamsOptions& o) {
  ModelConfig& config = o.config;
  config.kind = model_kinds(o.model).front();
  validate_architecture(config);
  const ParameterLayout layout(config);
  if (!o.summary)
    for (const auto& e : layout.entries())
      std::printf("%-32s %-14s %12s\n", e.name.c_str(), shape_text(e.shape).c_str(), grouped(e.size).c_str());
  std::printf("%s: d_model %d, heads %d, layers %d, d_ff %d, look-back %d, horizon %d, channels %d\n",
              std::string(to_string(config.kind)).c_str(), config.d_model, config.heads, config.layers, config.d_ff,
              config.seq_len, config.horizon, config.channels);
  std::printf("parameters per block: %s\n", grouped(layout.block_total(0)).c_str());
  std::printf("parameters in all:    %s (%s bytes as float32)\n", grouped(layout.total()).c_str(),
              grouped(layout.total() * sizeof(float)).c_str());
  return 0;
}

}  // namespace

void add_params_command(CommandLine& cli) {
  auto o = std::make_shared<ParamsOptions>();
  CLI::App* app = cli.add_command(
      cli.root(), "params",
      "the parameters of a model configuration, by name and shape\n\n"
      "Lists every parameter of the model by its checkpoint name and shape, the parameters of\n"
      "each block and the total. With d-model 512 and d-ff 2048 one block has 3,152,384\n"
      "parameters (Transformer) and 3,152,896 (Aaren), as in the paper.",
      [o] { return print_params(*o); });
  add_model_choice(app, o->model, false);
  add_architecture_options(app, o->config);
  o->config.channels = 1;
  add_whole(app, "--channels", o->config.channels, 1, 4096, "C", "input channels")->group(kModelGroup);
  add_switch(app, "--summary", o->summary, "totals only")->group(kOptionsGroup);
}

}  // namespace aaren::cli
