// The reinforcement-learning data set reader (core/rl/offline_dataset.hpp) on arbitrary bytes.
// Refusing them is fine; an accepted data set must have columns of one length that fit its
// environment, flags of 0 or 1, and episode returns that add up to its rewards, and written again
// it must read back the same.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <string>
#include <string_view>

#include "core/rl/offline_dataset.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using aaren::fuzz::require;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string source = "dataset.safetensors";
  aaren::rl::OfflineDataset d;
  if (!aaren::fuzz::accepted([&] { d = aaren::rl::parse_dataset(bytes, source); }, source)) return 0;
  const long steps = d.steps();
  require(steps > 0, "an accepted data set has steps");
  require(long(d.observations.size()) == steps * d.observation_dim && long(d.actions.size()) == steps * d.action_dim &&
              long(d.terminals.size()) == steps && long(d.timeouts.size()) == steps,
          "every column has a row per step");
  for (long i = 0; i < steps; ++i)
    require((d.terminals[std::size_t(i)] == 0 || d.terminals[std::size_t(i)] == 1) &&
                (d.timeouts[std::size_t(i)] == 0 || d.timeouts[std::size_t(i)] == 1),
            "flags are 0 or 1");
  const std::vector<double> returns = d.episode_returns();
  double ended = 0;
  long last_end = -1;
  for (long i = 0; i < steps; ++i)
    if (d.terminals[std::size_t(i)] != 0 || d.timeouts[std::size_t(i)] != 0) last_end = i;
  for (long i = 0; i <= last_end; ++i) ended += d.rewards[std::size_t(i)];
  const double summed = std::accumulate(returns.begin(), returns.end(), 0.0);
  require(std::abs(summed - ended) <= 1e-6 * (1 + std::abs(ended)), "episode returns add up to the rewards of ended episodes");
  const std::string path = (std::filesystem::temp_directory_path() / "fuzz_rl_dataset_again.safetensors").string();
  aaren::rl::write_dataset(path, d);
  const aaren::rl::OfflineDataset again = aaren::rl::read_dataset(path);
  require(again.observations == d.observations && again.actions == d.actions && again.rewards == d.rewards &&
              again.terminals == d.terminals && again.timeouts == d.timeouts && again.environment == d.environment &&
              again.policy == d.policy && again.seed == d.seed,
          "a data set written again reads back the same");
  return 0;
}
