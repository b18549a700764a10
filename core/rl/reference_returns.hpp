#pragma once
// Each environment's reference returns, so that scores are normalized as D4RL normalizes them:
// 100 (R - R_random) / (R_expert - R_random). Recorded as the mean return of 100 episodes (starts
// drawn with seeds 1 to 100) of the random policy (seeded alike) and of the closed-form expert;
// tst_rl_datasets measures them again. The medium policy is the expert with this share of its
// steps replaced by random actions, chosen so that it scores between a third and a half.
#include <string_view>

namespace aaren::rl {

struct ReferenceReturns {
  double random = 0;
  double expert = 0;
  double medium_noise = 0;  // the share of random steps that makes the medium policy
};

inline constexpr int kReferenceEpisodes = 100;

const ReferenceReturns& reference_returns(std::string_view environment);  // throws std::invalid_argument
double normalized_score(std::string_view environment, double episode_return);

}  // namespace aaren::rl
