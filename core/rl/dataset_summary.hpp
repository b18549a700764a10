#pragma once
// An offline data set described episode by episode, for the app's Data page, the report and the
// command line: where each episode starts, its length, its return and normalized score, which part
// of the behaviour produced it (the medium or the expert half of medium-expert, the first, second or
// last third of medium-replay's rising buffer), and whether the step budget cut it short.
#include <string>
#include <vector>

#include "core/rl/offline_dataset.hpp"

namespace aaren::rl {

struct DatasetEpisode {
  long start = 0;  // its first row
  int length = 0;  // steps
  double episode_return = 0;
  double score = 0;    // normalized as D4RL's (core/rl/reference_returns.hpp)
  int behaviour = 0;   // index into DatasetSummary::behaviours
  bool cut = false;    // ended by the data set's step budget, not by the task (its score is not a whole episode's)
};

struct DatasetSummary {
  std::vector<std::string> behaviours;  // "medium", "expert"; one for a single policy
  std::vector<DatasetEpisode> episodes;
  // Over the whole episodes (the cut one left out): their count, and the normalized score's and the
  // return's mean and range (0 when there is no whole episode).
  long whole_episodes = 0;
  double score_mean = 0, score_min = 0, score_max = 0;
  double return_mean = 0, return_min = 0, return_max = 0;
};

DatasetSummary summarize_dataset(const OfflineDataset& dataset);

// Episodes per behaviour counted in bins of the normalized score: edges (bins + 1, rising, at
// round steps of 5, 10, 20, 25, 50 or 100 so that at most `max_bins` cover every whole episode's
// score) and counts[behaviour][bin]. Cut episodes are not counted.
struct ScoreHistogram {
  std::vector<double> edges;
  std::vector<std::vector<long>> counts;
};
ScoreHistogram score_histogram(const DatasetSummary& summary, int max_bins = 12);  // max_bins >= 3

}  // namespace aaren::rl
