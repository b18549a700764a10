#include "core/rl/dataset_summary.hpp"

#include <algorithm>
#include <cmath>

#include "core/rl/environment.hpp"
#include "core/rl/reference_returns.hpp"

namespace aaren::rl {

namespace {

// The behaviours a policy's episodes come from, and which one played the episode starting at
// `start` (the rule generate_dataset follows: core/rl/offline_dataset.hpp).
std::vector<std::string> behaviours_of(DatasetPolicy policy) {
  switch (policy) {
    case DatasetPolicy::medium_expert: return {"medium", "expert"};
    case DatasetPolicy::medium_replay: return {"early third", "middle third", "late third"};
    default: return {std::string(to_string(policy))};
  }
}

int behaviour_at(DatasetPolicy policy, long start, long steps) {
  switch (policy) {
    case DatasetPolicy::medium_expert: return plays_expert_half(start, steps) ? 1 : 0;
    case DatasetPolicy::medium_replay: return int(std::min<long>(2, 3 * start / steps));
    default: return 0;
  }
}

// A round bin width (5, 10, 20, 25, 50, 100, then powers of ten times those) so that at most
// `max_bins` bins cover `span`.
double bin_width(double span, int max_bins) {
  for (double scale = 1;; scale *= 10)
    for (const double step : {5.0, 10.0, 20.0, 25.0, 50.0})
      if (span <= step * scale * max_bins) return step * scale;
}

}  // namespace

DatasetSummary summarize_dataset(const OfflineDataset& d) {
  DatasetSummary summary;
  const DatasetPolicy policy = dataset_policy_from_string(d.policy).value_or(DatasetPolicy::random);
  const int time_limit = make_environment(d.environment)->spec().time_limit;
  summary.behaviours = behaviours_of(policy);
  DatasetEpisode episode;
  for (long i = 0; i < d.steps(); ++i) {
    episode.episode_return += d.rewards[std::size_t(i)];
    ++episode.length;
    const bool terminal = d.terminals[std::size_t(i)] != 0;
    if (!terminal && d.timeouts[std::size_t(i)] == 0) continue;
    // A timeout before the time limit is the step budget's, on the last row only.
    episode.cut = !terminal && episode.length < time_limit && i == d.steps() - 1;
    episode.score = normalized_score(d.environment, episode.episode_return);
    episode.behaviour = behaviour_at(policy, episode.start, d.steps());
    summary.episodes.push_back(episode);
    episode = DatasetEpisode{};
    episode.start = i + 1;
  }
  std::vector<const DatasetEpisode*> counted;
  for (const DatasetEpisode& e : summary.episodes)
    if (!e.cut) counted.push_back(&e);
  summary.whole_episodes = long(counted.size());
  if (counted.empty()) return summary;
  summary.score_min = summary.score_max = counted.front()->score;
  summary.return_min = summary.return_max = counted.front()->episode_return;
  for (const DatasetEpisode* e : counted) {
    summary.score_mean += e->score / double(counted.size());
    summary.return_mean += e->episode_return / double(counted.size());
    summary.score_min = std::min(summary.score_min, e->score);
    summary.score_max = std::max(summary.score_max, e->score);
    summary.return_min = std::min(summary.return_min, e->episode_return);
    summary.return_max = std::max(summary.return_max, e->episode_return);
  }
  return summary;
}

ScoreHistogram score_histogram(const DatasetSummary& summary, int max_bins) {
  ScoreHistogram histogram;
  histogram.counts.assign(summary.behaviours.size(), {});
  if (summary.whole_episodes == 0) return histogram;
  // The span fits max_bins - 2 widths, so that with its ends rounded out it fits max_bins bins.
  const double width = bin_width(summary.score_max - summary.score_min, std::max(1, max_bins - 2));
  const double low = std::floor(summary.score_min / width) * width;
  int bins = int(std::floor((summary.score_max - low) / width)) + 1;
  for (int b = 0; b <= bins; ++b) histogram.edges.push_back(low + b * width);
  for (std::vector<long>& counts : histogram.counts) counts.assign(std::size_t(bins), 0);
  for (const DatasetEpisode& e : summary.episodes) {
    if (e.cut) continue;
    const int bin = std::clamp(int(std::floor((e.score - low) / width)), 0, bins - 1);
    ++histogram.counts[std::size_t(e.behaviour)][std::size_t(bin)];
  }
  return histogram;
}

}  // namespace aaren::rl
