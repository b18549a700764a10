#pragma once
// Each environment's recorded constants: its reference returns, so that scores are normalized as
// D4RL normalizes them, 100 (R - R_random) / (R_expert - R_random), recorded as the mean return of
// 100 episodes (starts drawn with seeds 1 to 100) of the random policy (seeded alike) and of the
// closed-form expert without noise (tst_rl_datasets measures them again); and the action noise of
// the behaviours its data sets are generated with (core/rl/policies.hpp, docs/DESIGN.md section 11).
#include <string_view>

namespace aaren::rl {

// How a behaviour departs from the closed-form expert at each step.
struct ActionNoise {
  double random_share = 0;  // the chance that the step's action is a uniform random one instead
  double jitter = 0;        // Gaussian noise on the expert's action, its deviation a share of the bound
};

struct ReferenceReturns {
  double random = 0;
  double expert = 0;
  ActionNoise expert_noise;  // the data sets' expert
  ActionNoise medium_noise;  // chosen so that the medium policy scores between a third and a half
};

inline constexpr int kReferenceEpisodes = 100;

const ReferenceReturns& reference_returns(std::string_view environment);  // throws std::invalid_argument
double normalized_score(std::string_view environment, double episode_return);

}  // namespace aaren::rl
