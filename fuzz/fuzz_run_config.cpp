// The run configuration reader (config.json of a run folder, core/forecast/forecast_run_folder.hpp) on
// arbitrary text. Refusing it is fine; an accepted configuration must describe a model whose
// parameters can be laid out, and must survive being written and read again unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/model/parameter_layout.hpp"
#include "core/forecast/forecast_run_folder.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using aaren::fuzz::require;

void check_config(const aaren::ForecastRunConfig& config, const std::string& source) {
  const aaren::ParameterLayout layout(config.model);
  require(layout.total() > 0, "the model has parameters");
  require(config.scaler.mean.size() == config.channels.size() && config.scaler.stddev.size() == config.channels.size(),
          "one scaler mean and deviation per channel");
  const std::string written = aaren::run_config_json(config);
  require(aaren::run_config_json(aaren::parse_run_config(written, source)) == written,
          "the configuration reads back unchanged");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string source = "config.json";
  aaren::ForecastRunConfig config;
  if (aaren::fuzz::accepted([&] { config = aaren::parse_run_config(text, source); }, source))
    check_config(config, source);
  return 0;
}
