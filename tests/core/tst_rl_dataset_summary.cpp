// An offline data set described episode by episode (core/rl/dataset_summary.hpp): the episodes
// partition the rows, their returns are the data set's own, each is credited to the part of the
// behaviour that generate_dataset used for it, the step budget's cut is told apart, and the score
// histogram counts every whole episode once, in the bin its score falls in. Generation hears its
// progress and stops when cancelled.
#include <QtTest>

#include <atomic>
#include <numeric>

#include "core/rl/dataset_summary.hpp"
#include "core/rl/environment.hpp"
#include "core/rl/reference_returns.hpp"

using namespace aaren;
using namespace aaren::rl;

class TestRlDatasetSummary : public QObject {
  Q_OBJECT

 private slots:
  void episodesPartitionTheRows_data();
  void episodesPartitionTheRows();
  void mediumExpertIsSplitAtItsHalf();
  void mediumReplayRisesThirdByThird();
  void histogramCountsEveryWholeEpisodeOnce_data();
  void histogramCountsEveryWholeEpisodeOnce();
  void aSingleCutEpisodeHasNoScore();
  void generationReportsProgressAndStopsWhenCancelled();
};

void TestRlDatasetSummary::episodesPartitionTheRows_data() {
  QTest::addColumn<QString>("environment");
  QTest::addColumn<QString>("policy");
  QTest::addColumn<int>("steps");
  QTest::newRow("pendulum medium, cut") << "pendulum" << "medium" << 2345;
  QTest::newRow("pendulum expert, whole") << "pendulum" << "expert" << 2000;
  QTest::newRow("cartpole random") << "cartpole" << "random" << 3000;
  QTest::newRow("swing-up medium-expert") << "cartpole-swingup" << "medium-expert" << 4321;
}

void TestRlDatasetSummary::episodesPartitionTheRows() {
  QFETCH(QString, environment);
  QFETCH(QString, policy);
  QFETCH(int, steps);
  const OfflineDataset d = generate_dataset(environment.toStdString(), *dataset_policy_from_string(policy.toStdString()), steps, 3);
  const DatasetSummary summary = summarize_dataset(d);
  const std::vector<double> returns = d.episode_returns();
  QCOMPARE(summary.episodes.size(), returns.size());
  const int limit = make_environment(environment.toStdString())->spec().time_limit;
  long next = 0, whole = 0;
  double scoreSum = 0;
  for (std::size_t e = 0; e < summary.episodes.size(); ++e) {
    const DatasetEpisode& episode = summary.episodes[e];
    QCOMPARE(episode.start, next);
    next += episode.length;
    const long last = next - 1;
    QVERIFY(d.terminals[std::size_t(last)] != 0 || d.timeouts[std::size_t(last)] != 0);
    QCOMPARE(episode.episode_return, returns[e]);
    QCOMPARE(episode.score, normalized_score(d.environment, episode.episode_return));
    // Cut: it ends on the last row, not by the task and before the time limit.
    QCOMPARE(episode.cut, last == d.steps() - 1 && d.terminals[std::size_t(last)] == 0 && episode.length < limit);
    if (!episode.cut) {
      ++whole;
      scoreSum += episode.score;
    }
  }
  QCOMPARE(next, d.steps());
  QCOMPARE(summary.whole_episodes, whole);
  QVERIFY(std::abs(summary.score_mean - scoreSum / double(whole)) < 1e-9);
  QVERIFY(summary.score_min <= summary.score_mean && summary.score_mean <= summary.score_max);
  QCOMPARE(summary.score_min, normalized_score(d.environment, summary.return_min));
  QCOMPARE(summary.behaviours.size(), policy == QLatin1String("medium-expert") ? std::size_t(2) : std::size_t(1));
}

void TestRlDatasetSummary::mediumExpertIsSplitAtItsHalf() {
  const long steps = 20000;
  const OfflineDataset d = generate_dataset("cartpole", DatasetPolicy::medium_expert, steps, 5);
  const DatasetSummary summary = summarize_dataset(d);
  QCOMPARE(summary.behaviours, (std::vector<std::string>{"medium", "expert"}));
  double medium = 0, expert = 0;
  int media = 0, experts = 0;
  for (const DatasetEpisode& e : summary.episodes) {
    QCOMPARE(e.behaviour, e.start < steps / 2 ? 0 : 1);  // generate_dataset's rule
    if (e.cut) continue;
    (e.behaviour == 0 ? medium : expert) += e.score;
    ++(e.behaviour == 0 ? media : experts);
  }
  QVERIFY(media > 10 && experts > 10);
  // The expert balances every episode to the time limit; the medium policy falls earlier.
  QVERIFY2(expert / experts > 99 && medium / media < 70, qPrintable(QStringLiteral("%1 %2").arg(medium / media).arg(expert / experts)));
}

void TestRlDatasetSummary::mediumReplayRisesThirdByThird() {
  const long steps = 30000;
  const OfflineDataset d = generate_dataset("cartpole", DatasetPolicy::medium_replay, steps, 5);
  const DatasetSummary summary = summarize_dataset(d);
  QCOMPARE(summary.behaviours.size(), std::size_t(3));
  std::vector<double> sum(3, 0);
  std::vector<int> count(3, 0);
  for (const DatasetEpisode& e : summary.episodes) {
    QCOMPARE(e.behaviour, int(3 * e.start / steps));
    if (e.cut) continue;
    sum[std::size_t(e.behaviour)] += e.score;
    ++count[std::size_t(e.behaviour)];
  }
  QVERIFY(sum[0] / count[0] < sum[1] / count[1]);
  QVERIFY(sum[1] / count[1] < sum[2] / count[2]);
}

void TestRlDatasetSummary::histogramCountsEveryWholeEpisodeOnce_data() {
  QTest::addColumn<QString>("policy");
  QTest::addColumn<int>("maxBins");
  QTest::newRow("medium-expert, 12 bins") << "medium-expert" << 12;
  QTest::newRow("medium-replay, 5 bins") << "medium-replay" << 5;
  QTest::newRow("expert, 3 bins") << "expert" << 3;
}

void TestRlDatasetSummary::histogramCountsEveryWholeEpisodeOnce() {
  QFETCH(QString, policy);
  QFETCH(int, maxBins);
  const OfflineDataset d = generate_dataset("pendulum", *dataset_policy_from_string(policy.toStdString()), 12345, 2);
  const DatasetSummary summary = summarize_dataset(d);
  const ScoreHistogram histogram = score_histogram(summary, maxBins);
  const int bins = int(histogram.edges.size()) - 1;
  QVERIFY(bins >= 1 && bins <= maxBins);
  const double width = histogram.edges[1] - histogram.edges[0];
  QVERIFY(width > 0);
  for (int b = 0; b <= bins; ++b) {
    // Round edges: whole multiples of the width, itself one of the round steps.
    QVERIFY(std::abs(histogram.edges[std::size_t(b)] / width - std::round(histogram.edges[std::size_t(b)] / width)) < 1e-9);
    if (b > 0) QVERIFY(std::abs(histogram.edges[std::size_t(b)] - histogram.edges[std::size_t(b - 1)] - width) < 1e-9);
  }
  QVERIFY(histogram.edges.front() <= summary.score_min && summary.score_max <= histogram.edges.back());
  // Each whole episode counted once, in its bin, under its behaviour.
  std::vector<std::vector<long>> expected(summary.behaviours.size(), std::vector<long>(std::size_t(bins), 0));
  for (const DatasetEpisode& e : summary.episodes) {
    if (e.cut) continue;
    int bin = 0;
    while (bin < bins - 1 && e.score >= histogram.edges[std::size_t(bin + 1)]) ++bin;
    ++expected[std::size_t(e.behaviour)][std::size_t(bin)];
  }
  QCOMPARE(histogram.counts, expected);
  long total = 0;
  for (const std::vector<long>& counts : histogram.counts) total = std::accumulate(counts.begin(), counts.end(), total);
  QCOMPARE(total, summary.whole_episodes);
}

void TestRlDatasetSummary::aSingleCutEpisodeHasNoScore() {
  const OfflineDataset d = generate_dataset("pendulum", DatasetPolicy::expert, 50, 1);
  const DatasetSummary summary = summarize_dataset(d);
  QCOMPARE(summary.episodes.size(), std::size_t(1));
  QVERIFY(summary.episodes.front().cut);
  QCOMPARE(summary.whole_episodes, 0L);
  QVERIFY(score_histogram(summary).edges.empty());
}

void TestRlDatasetSummary::generationReportsProgressAndStopsWhenCancelled() {
  std::vector<double> fractions;
  CancelToken token;
  token.progress = [&](double fraction) { fractions.push_back(fraction); };
  const OfflineDataset d = generate_dataset("pendulum", DatasetPolicy::medium, 2000, 4, token);
  QCOMPARE(fractions.size(), d.episode_returns().size());  // once per episode
  QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
  QCOMPARE(fractions.back(), 1.0);
  // The token does not change what is generated.
  const OfflineDataset plain = generate_dataset("pendulum", DatasetPolicy::medium, 2000, 4);
  QVERIFY(plain.observations == d.observations && plain.actions == d.actions);

  std::atomic<bool> cancel{false};
  CancelToken cancelling;
  cancelling.cancel = &cancel;
  int episodes = 0;
  cancelling.progress = [&](double) {
    if (++episodes == 3) cancel = true;
  };
  QVERIFY_THROWS_EXCEPTION(ReadCancelled, generate_dataset("pendulum", DatasetPolicy::medium, 100000, 4, cancelling));
  QCOMPARE(episodes, 3);  // it stopped at the next episode
}

QTEST_APPLESS_MAIN(TestRlDatasetSummary)
#include "tst_rl_dataset_summary.moc"
