#pragma once
// Offline data sets in D4RL's layout and names: observations (N, obs), actions (N, act), rewards,
// terminals and timeouts (N each, 0 or 1), one row per step, the observation the action was taken
// in; an episode ends at a row whose terminal or timeout is 1 (the last row's timeout is 1 when the
// step budget cut its episode short). Stored as safetensors (float32) with the environment, the
// policy, the seed and a checksum of the values as metadata, written whole or not at all.
//
// Policies (core/rl/policies.hpp): random; expert; medium (the expert under the noise its
// environment records, core/rl/reference_returns.hpp); medium-replay (episodes of rising quality, as
// a learner's replay buffer holds them: the share of random steps falls from 1 to medium's over the
// budget); medium-expert (the first half of the steps medium, the second half expert).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rl/reference_returns.hpp"
#include "core/util/cancel_token.hpp"

namespace aaren::rl {

enum class DatasetPolicy { random, medium, medium_replay, medium_expert, expert };

std::string_view to_string(DatasetPolicy policy);  // "random", "medium", "medium-replay", ...
std::optional<DatasetPolicy> dataset_policy_from_string(std::string_view name);
std::string dataset_policy_names();

struct OfflineDataset {
  std::string environment;
  std::string policy;
  std::uint64_t seed = 0;
  int observation_dim = 0;
  int action_dim = 0;
  std::vector<float> observations, actions, rewards, terminals, timeouts;

  long steps() const { return long(rewards.size()); }
  // The return of each episode, in order.
  std::vector<double> episode_returns() const;
};

// Whether the episode starting at row `step` of a medium-expert data set of `steps` rows is the
// expert's (the second half) rather than medium's.
bool plays_expert_half(long step, long steps);

// The action noise of the behaviour that plays the episode starting at row `step` of a data set of
// `steps` rows, from the environment's recorded noises: the random policy's share 1; the expert's
// and medium's own; medium-replay's share of random steps falling from 1 to medium's over the
// buffer with medium's jitter; medium-expert's medium, then expert.
ActionNoise behaviour_noise(DatasetPolicy policy, const ReferenceReturns& reference, long step, long steps);

// `steps` rows from episodes whose starts and random draws come from `seed`. Throws
// std::invalid_argument for an unknown environment or steps below 1, and ReadCancelled once
// `token` is cancelled (it hears the fraction done after each episode).
OfflineDataset generate_dataset(std::string_view environment, DatasetPolicy policy, long steps, std::uint64_t seed,
                                const CancelToken& token = {});

void write_dataset(const std::string& path, const OfflineDataset& dataset);
// Throws std::runtime_error "PATH: PROBLEM" for a file that is not such a data set, is truncated,
// or whose values do not match their checksum.
OfflineDataset read_dataset(const std::string& path);
OfflineDataset parse_dataset(std::string_view bytes, const std::string& source);

}  // namespace aaren::rl
