#include "core/rl/offline_dataset.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/io/checksum.hpp"
#include "core/io/safetensors.hpp"
#include "core/rl/policies.hpp"
#include "core/rl/reference_returns.hpp"

namespace aaren::rl {

namespace {

constexpr const char* kFormat = "aaren-studio-rl-dataset";
constexpr const char* kVersion = "1";
const char* const kTensorNames[] = {"observations", "actions", "rewards", "terminals", "timeouts"};

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw std::runtime_error(source + ": " + problem);
}

const std::string& required(const std::map<std::string, std::string>& metadata, const std::string& key,
                            const std::string& source) {
  const auto found = metadata.find(key);
  if (found == metadata.end()) fail(source, "the header's metadata has no '" + key + "' (a damaged or foreign file)");
  return found->second;
}

std::vector<const std::vector<float>*> columns(const OfflineDataset& d) {
  return {&d.observations, &d.actions, &d.rewards, &d.terminals, &d.timeouts};
}

OfflineDataset from_content(const SafetensorsContent& content, const std::string& source) {
  if (content.metadata.empty() || required(content.metadata, "format", source) != kFormat)
    fail(source, "not an Aaren Studio reinforcement-learning data set (write one with 'aaren rl generate')");
  if (required(content.metadata, "version", source) != kVersion)
    fail(source, "data set version '" + content.metadata.at("version") + "'; this Aaren Studio reads version " + kVersion);
  OfflineDataset d;
  d.environment = required(content.metadata, "env", source);
  d.policy = required(content.metadata, "policy", source);
  const std::string& seed = required(content.metadata, "seed", source);
  const auto [end, error] = std::from_chars(seed.data(), seed.data() + seed.size(), d.seed);
  if (error != std::errc() || end != seed.data() + seed.size()) fail(source, "the metadata's seed '" + seed + "' is not a whole number");
  try {
    reference_returns(d.environment);
  } catch (const std::invalid_argument& e) {
    fail(source, e.what());
  }
  if (!dataset_policy_from_string(d.policy)) fail(source, "unknown policy '" + d.policy + "'; choose one of: " + dataset_policy_names());
  if (content.tensors.size() != 5) fail(source, "a data set holds 5 tensors (" + std::string("observations, actions, rewards, terminals, timeouts") + "), this file " + std::to_string(content.tensors.size()));
  Fnv1a64 checksum;
  std::vector<std::vector<float>*> targets{&d.observations, &d.actions, &d.rewards, &d.terminals, &d.timeouts};
  std::int64_t rows = -1;
  for (int i = 0; i < 5; ++i) {
    const Tensor* tensor = content.find(kTensorNames[i]);
    if (!tensor) fail(source, std::string("no tensor '") + kTensorNames[i] + "'");
    const bool matrix = i < 2;
    if (int(tensor->shape.size()) != (matrix ? 2 : 1))
      fail(source, std::string("'") + kTensorNames[i] + "' must be " + (matrix ? "(steps, dimensions)" : "(steps)"));
    if (rows < 0) rows = tensor->shape[0];
    if (tensor->shape[0] != rows)
      fail(source, std::string("'") + kTensorNames[i] + "' has " + std::to_string(tensor->shape[0]) + " rows, 'observations' " +
                       std::to_string(rows));
    if (i == 0) d.observation_dim = int(tensor->shape[1]);
    if (i == 1) d.action_dim = int(tensor->shape[1]);
    *targets[std::size_t(i)] = tensor->data;
  }
  if (rows < 1) fail(source, "the data set has no steps");
  // Damage first, so that a changed byte is called damage whatever value it made.
  for (const std::vector<float>* column : targets) checksum.add_little_endian(*column);
  if (checksum.hex() != required(content.metadata, "data_fnv1a64", source))
    fail(source, "the values do not match the checksum stored with them: the file was damaged after it was written");
  for (int i = 3; i < 5; ++i)
    for (const float flag : *targets[std::size_t(i)])
      if (flag != 0.0f && flag != 1.0f) fail(source, std::string("'") + kTensorNames[i] + "' holds a value other than 0 and 1");
  const auto environment = make_environment(d.environment);
  if (d.observation_dim != int(environment->spec().observation.size()) || d.action_dim != environment->spec().action_dim)
    fail(source, "observations of " + std::to_string(d.observation_dim) + " and actions of " + std::to_string(d.action_dim) +
                     " values do not fit " + d.environment);
  return d;
}

}  // namespace

std::string_view to_string(DatasetPolicy policy) {
  switch (policy) {
    case DatasetPolicy::random: return "random";
    case DatasetPolicy::medium: return "medium";
    case DatasetPolicy::medium_replay: return "medium-replay";
    case DatasetPolicy::medium_expert: return "medium-expert";
    case DatasetPolicy::expert: return "expert";
  }
  return "random";
}

std::optional<DatasetPolicy> dataset_policy_from_string(std::string_view name) {
  for (const DatasetPolicy policy : {DatasetPolicy::random, DatasetPolicy::medium, DatasetPolicy::medium_replay,
                                     DatasetPolicy::medium_expert, DatasetPolicy::expert})
    if (name == to_string(policy)) return policy;
  return std::nullopt;
}

std::string dataset_policy_names() { return "random, medium, medium-replay, medium-expert, expert"; }

std::vector<double> OfflineDataset::episode_returns() const {
  std::vector<double> returns;
  double total = 0;
  for (long i = 0; i < steps(); ++i) {
    total += rewards[std::size_t(i)];
    if (terminals[std::size_t(i)] != 0 || timeouts[std::size_t(i)] != 0) {
      returns.push_back(total);
      total = 0;
    }
  }
  return returns;
}

bool plays_expert_half(long step, long steps) { return step >= steps / 2; }

ActionNoise behaviour_noise(DatasetPolicy policy, const ReferenceReturns& reference, long step, long steps) {
  const ActionNoise& medium = reference.medium_noise;
  switch (policy) {
    case DatasetPolicy::random: return {1.0, 0.0};
    case DatasetPolicy::expert: return reference.expert_noise;
    case DatasetPolicy::medium: return medium;
    case DatasetPolicy::medium_replay:
      return {1.0 - (1.0 - medium.random_share) * double(step) / double(steps), medium.jitter};
    case DatasetPolicy::medium_expert: return plays_expert_half(step, steps) ? reference.expert_noise : medium;
  }
  return {1.0, 0.0};  // unreachable: every policy is listed
}

OfflineDataset generate_dataset(std::string_view environment_name, DatasetPolicy policy, long steps, std::uint64_t seed,
                                const CancelToken& token) {
  if (steps < 1) throw std::invalid_argument("a data set needs at least 1 step, not " + std::to_string(steps));
  const auto environment = make_environment(environment_name);
  const EnvironmentSpec& spec = environment->spec();
  const ReferenceReturns& reference = reference_returns(environment_name);
  OfflineDataset d;
  d.environment = spec.name;
  d.policy = std::string(to_string(policy));
  d.seed = seed;
  d.observation_dim = int(spec.observation.size());
  d.action_dim = spec.action_dim;
  long step = 0;
  for (std::uint64_t episode = 0; step < steps; ++episode) {
    const std::uint64_t episode_seed = seed * 1000003ULL + episode;
    if (token.cancelled()) throw ReadCancelled("generating the data set was cancelled");
    NoisyExpert behaviour(environment_name, behaviour_noise(policy, reference, step, steps), episode_seed);
    std::vector<double> observation = environment->reset(episode_seed);
    for (;;) {
      const std::vector<double> action = behaviour.act(*environment);
      const StepResult result = environment->step(action);
      d.observations.insert(d.observations.end(), observation.begin(), observation.end());
      for (const double a : action) d.actions.push_back(float(std::clamp(a, spec.action_low, spec.action_high)));
      d.rewards.push_back(float(result.reward));
      d.terminals.push_back(result.terminal ? 1.0f : 0.0f);
      ++step;
      const bool cut = step == steps;
      d.timeouts.push_back(!result.terminal && (result.timeout || cut) ? 1.0f : 0.0f);
      if (result.terminal || result.timeout || cut) break;
      observation = result.observation;
    }
    if (token.progress) token.progress(double(step) / double(steps));
  }
  return d;
}

void write_dataset(const std::string& path, const OfflineDataset& d) {
  const std::int64_t n = d.steps();
  const std::vector<std::vector<std::int64_t>> shapes{{n, d.observation_dim}, {n, d.action_dim}, {n}, {n}, {n}};
  std::vector<TensorView> tensors;
  Fnv1a64 checksum;
  const auto data = columns(d);
  for (std::size_t i = 0; i < 5; ++i) {
    tensors.push_back({kTensorNames[i], shapes[i], *data[i]});
    checksum.add_little_endian(*data[i]);
  }
  write_safetensors(path, tensors,
                    {{"format", kFormat}, {"version", kVersion}, {"env", d.environment}, {"policy", d.policy},
                     {"seed", std::to_string(d.seed)}, {"data_fnv1a64", checksum.hex()}});
}

OfflineDataset parse_dataset(std::string_view bytes, const std::string& source) {
  return from_content(parse_safetensors(bytes, source), source);
}

OfflineDataset read_dataset(const std::string& path) { return from_content(read_safetensors(path), path); }

}  // namespace aaren::rl
