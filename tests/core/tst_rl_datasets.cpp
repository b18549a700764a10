// Behaviour policies and offline data sets (core/rl/policies.hpp, reference_returns.hpp,
// offline_dataset.hpp): the recorded reference returns are what the random policy and the expert
// reach, measured again; the medium policy scores a third to a half; a data set's layout follows
// D4RL's (every episode ends on a flag, medium-replay rises in quality, medium-expert holds both);
// seeds reproduce data sets byte for byte; files round-trip, and damaged, truncated or foreign files
// are refused with a message naming the problem.
#include <QtTest>
#include <optional>

#include <fstream>
#include <numeric>
#include <stdexcept>

#include "core/io/safetensors.hpp"
#include "core/rl/offline_dataset.hpp"
#include "core/rl/policies.hpp"
#include "core/rl/reference_returns.hpp"

using namespace aaren::rl;

namespace {

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

double meanReturn(std::string_view name, std::optional<ActionNoise> noise) {
  const auto environment = make_environment(name);
  double total = 0;
  for (int seed = 1; seed <= kReferenceEpisodes; ++seed) {
    if (!noise) {
      const auto expert = make_expert(name);
      total += run_episode(*environment, *expert, std::uint64_t(seed)).total_reward;
    } else if (noise->random_share >= 1.0) {
      RandomPolicy random{std::uint64_t(seed)};
      total += run_episode(*environment, random, std::uint64_t(seed)).total_reward;
    } else {
      NoisyExpert behaviour(name, *noise, std::uint64_t(seed));
      total += run_episode(*environment, behaviour, std::uint64_t(seed)).total_reward;
    }
  }
  return total / kReferenceEpisodes;
}

}  // namespace

class TestRlDatasets : public QObject {
  Q_OBJECT

 private slots:
  void referenceReturnsAreMeasuredAgain_data();
  void referenceReturnsAreMeasuredAgain();
  void theLayoutIsD4rls_data();
  void theLayoutIsD4rls();
  void mediumReplayRisesAndMediumExpertHoldsBoth();
  void seedsReproduceDataSets();
  void filesRoundTrip();
  void damagedFilesAreRefused_data();
  void damagedFilesAreRefused();
  void badRequestsAreRefused();
  void theExpertsJitterIsGaussian();

 private:
  QTemporaryDir dir_;
};

void TestRlDatasets::referenceReturnsAreMeasuredAgain_data() {
  QTest::addColumn<QString>("name");
  for (const char* name : {"pendulum", "cartpole", "cartpole-swingup"}) QTest::newRow(name) << QString::fromLatin1(name);
}

// The expert reaches its recorded return, the random policy its own, and medium between a third and
// a half of the way from one to the other.
void TestRlDatasets::referenceReturnsAreMeasuredAgain() {
  QFETCH(QString, name);
  const std::string env = name.toStdString();
  const ReferenceReturns& recorded = reference_returns(env);
  const double random = meanReturn(env, ActionNoise{1.0, 0.0}), expert = meanReturn(env, std::nullopt);
  QVERIFY2(std::abs(random - recorded.random) < 0.01, qPrintable(QString::number(random)));
  QVERIFY2(std::abs(expert - recorded.expert) < 0.01, qPrintable(QString::number(expert)));
  QCOMPARE(normalized_score(env, recorded.expert), 100.0);
  QCOMPARE(normalized_score(env, recorded.random), 0.0);
  const double medium = normalized_score(env, meanReturn(env, recorded.medium_noise));
  QVERIFY2(medium >= 30 && medium <= 55, qPrintable(QStringLiteral("medium scores %1").arg(medium)));
  // The data sets' expert, noise and all, stays near the expert's own score.
  const double noisyExpert = normalized_score(env, meanReturn(env, recorded.expert_noise));
  QVERIFY2(noisyExpert >= 95, qPrintable(QStringLiteral("the data's expert scores %1").arg(noisyExpert)));
}

void TestRlDatasets::theLayoutIsD4rls_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<QString>("policy");
  for (const char* name : {"pendulum", "cartpole", "cartpole-swingup"})
    for (const char* policy : {"random", "medium", "expert"})
      QTest::addRow("%s %s", name, policy) << QString::fromLatin1(name) << QString::fromLatin1(policy);
}

void TestRlDatasets::theLayoutIsD4rls() {
  QFETCH(QString, name);
  QFETCH(QString, policy);
  constexpr long kSteps = 1500;
  const OfflineDataset d = generate_dataset(name.toStdString(), *dataset_policy_from_string(policy.toStdString()), kSteps, 3);
  const auto environment = make_environment(name.toStdString());
  QCOMPARE(d.steps(), kSteps);
  QCOMPARE(long(d.observations.size()), kSteps * long(environment->spec().observation.size()));
  QCOMPARE(long(d.actions.size()), kSteps * environment->spec().action_dim);
  QCOMPARE(d.timeouts.back() + d.terminals.back(), 1.0f);  // the budget's cut ends the last episode
  // Every episode of the random policy on the cart and pole ends with the pole down; the pendulum's
  // only by its time limit.
  long ends = 0;
  for (long i = 0; i < d.steps(); ++i) {
    QVERIFY(!(d.terminals[std::size_t(i)] != 0 && d.timeouts[std::size_t(i)] != 0));
    ends += long(d.terminals[std::size_t(i)] + d.timeouts[std::size_t(i)]);
    for (int a = 0; a < d.action_dim; ++a) {
      const float action = d.actions[std::size_t(i * d.action_dim + a)];
      QVERIFY(action >= environment->spec().action_low && action <= environment->spec().action_high);
    }
  }
  QCOMPARE(long(d.episode_returns().size()), ends);
  if (name == QLatin1String("pendulum"))
    QVERIFY(std::accumulate(d.terminals.begin(), d.terminals.end(), 0.0f) == 0.0f);
  // Replaying the first episode's actions from its start gives its observations and rewards back.
  const std::vector<double> first = environment->reset(3 * 1000003ULL);
  for (int c = 0; c < d.observation_dim; ++c) QCOMPARE(d.observations[std::size_t(c)], float(first[std::size_t(c)]));
  const std::vector<double> action(d.actions.begin(), d.actions.begin() + d.action_dim);
  QCOMPARE(d.rewards[0], float(environment->step(action).reward));
}

void TestRlDatasets::mediumReplayRisesAndMediumExpertHoldsBoth() {
  const OfflineDataset replay = generate_dataset("cartpole", DatasetPolicy::medium_replay, 30000, 5);
  const std::vector<double> returns = replay.episode_returns();
  const std::size_t quarter = returns.size() / 4;
  const double early = std::accumulate(returns.begin(), returns.begin() + std::ptrdiff_t(quarter), 0.0) / double(quarter);
  const double late = std::accumulate(returns.end() - std::ptrdiff_t(quarter) - 1, returns.end() - 1, 0.0) / double(quarter);
  QVERIFY2(late > 2 * early, qPrintable(QStringLiteral("early %1, late %2").arg(early).arg(late)));

  const OfflineDataset mixed = generate_dataset("cartpole", DatasetPolicy::medium_expert, 20000, 5);
  const std::vector<double> mixedReturns = mixed.episode_returns();
  const long perfect = std::count(mixedReturns.begin(), mixedReturns.end(), 500.0);
  QVERIFY(perfect >= 15);                                 // the expert's half: 10,000 steps of whole episodes
  QVERIFY(long(mixedReturns.size()) - perfect >= 15);     // and medium's shorter ones
}

void TestRlDatasets::seedsReproduceDataSets() {
  QVERIFY(dir_.isValid());
  const std::string a = dir_.filePath(QStringLiteral("a.safetensors")).toStdString();
  const std::string b = dir_.filePath(QStringLiteral("b.safetensors")).toStdString();
  const std::string c = dir_.filePath(QStringLiteral("c.safetensors")).toStdString();
  write_dataset(a, generate_dataset("pendulum", DatasetPolicy::medium, 2000, 9));
  write_dataset(b, generate_dataset("pendulum", DatasetPolicy::medium, 2000, 9));
  write_dataset(c, generate_dataset("pendulum", DatasetPolicy::medium, 2000, 10));
  QCOMPARE(readBytes(a), readBytes(b));
  QVERIFY(readBytes(a) != readBytes(c));
}

void TestRlDatasets::filesRoundTrip() {
  const std::string path = dir_.filePath(QStringLiteral("round.safetensors")).toStdString();
  const OfflineDataset written = generate_dataset("cartpole-swingup", DatasetPolicy::medium_expert, 1200, 4);
  write_dataset(path, written);
  const OfflineDataset read = read_dataset(path);
  QCOMPARE(read.environment, written.environment);
  QCOMPARE(read.policy, std::string("medium-expert"));
  QCOMPARE(read.seed, std::uint64_t(4));
  QCOMPARE(read.observation_dim, 5);  // x, xdot, cos theta, sin theta, thetadot
  QCOMPARE(read.action_dim, 1);
  QVERIFY(read.observations == written.observations && read.actions == written.actions && read.rewards == written.rewards &&
          read.terminals == written.terminals && read.timeouts == written.timeouts);
}

void TestRlDatasets::damagedFilesAreRefused_data() {
  QTest::addColumn<QString>("damage");
  QTest::addColumn<QString>("message");
  QTest::newRow("a value changed") << "flip" << "do not match the checksum";
  QTest::newRow("truncated") << "truncate" << "data.safetensors";
  QTest::newRow("not a data set") << "foreign" << "not an Aaren Studio reinforcement-learning data set";
  QTest::newRow("a flag of 2") << "flag" << "'terminals' holds a value other than 0 and 1";
  QTest::newRow("unknown environment") << "environment" << "unknown environment 'mountaincar'";
}

void TestRlDatasets::damagedFilesAreRefused() {
  QFETCH(QString, damage);
  QFETCH(QString, message);
  const std::string path = dir_.filePath(QStringLiteral("data.safetensors")).toStdString();
  OfflineDataset d = generate_dataset("cartpole", DatasetPolicy::random, 300, 2);
  if (damage == QLatin1String("foreign")) {
    const std::vector<float> values(6, 1.0f);
    aaren::write_safetensors(path, {{"weight", {2, 3}, values}}, {});
  } else if (damage == QLatin1String("flag")) {
    d.terminals[5] = 2.0f;
    write_dataset(path, d);  // written with a checksum over the bad flag: the flag check must catch it
  } else if (damage == QLatin1String("environment")) {
    d.environment = "mountaincar";
    write_dataset(path, d);
  } else {
    write_dataset(path, d);
    std::string bytes = readBytes(path);
    if (damage == QLatin1String("flip"))
      bytes[bytes.size() - 7] = char(bytes[bytes.size() - 7] ^ 0x10);
    else
      bytes.resize(bytes.size() - 100);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  try {
    read_dataset(path);
    QFAIL("a damaged data set was read");
  } catch (const std::runtime_error& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains(message), error.what());
    QVERIFY2(QString::fromUtf8(error.what()).startsWith(QString::fromStdString(path)), error.what());
  }
}

void TestRlDatasets::badRequestsAreRefused() {
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generate_dataset("cartpole", DatasetPolicy::random, 0, 1));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generate_dataset("mountaincar", DatasetPolicy::random, 10, 1));
  QVERIFY(!dataset_policy_from_string("novice"));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NoisyExpert("cartpole", ActionNoise{1.5, 0.1}, 1));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NoisyExpert("cartpole", ActionNoise{0.5, -0.1}, 1));
}

// The behaviour's jitter: none gives the expert's action exactly; the pendulum's data sets' expert
// adds noise of mean 0 and deviation 0.1 times the bound (0.2), drawn afresh at each step.
void TestRlDatasets::theExpertsJitterIsGaussian() {
  const auto environment = make_environment("pendulum");
  environment->reset(3);
  const double expert = make_expert("pendulum")->act(*environment)[0];
  NoisyExpert clean("pendulum", ActionNoise{0.0, 0.0}, 5);
  QCOMPARE(clean.act(*environment)[0], expert);
  QCOMPARE(reference_returns("pendulum").expert_noise.jitter, 0.1);
  NoisyExpert behaviour("pendulum", reference_returns("pendulum").expert_noise, 5);
  const int draws = 20000;
  double sum = 0, squares = 0, beyond = 0;
  for (int i = 0; i < draws; ++i) {
    const double d = behaviour.act(*environment)[0] - expert;
    sum += d;
    squares += d * d;
    beyond += std::abs(d) > 2 * 0.2;  // two deviations: 4.6% of a normal's draws
  }
  const double mean = sum / draws, deviation = std::sqrt(squares / draws - mean * mean);
  QVERIFY2(std::abs(mean) < 0.01, qPrintable(QString::number(mean)));
  QVERIFY2(std::abs(deviation - 0.2) < 0.005, qPrintable(QString::number(deviation)));
  QVERIFY2(std::abs(beyond / draws - 0.0455) < 0.006, qPrintable(QString::number(beyond / draws)));
}

QTEST_MAIN(TestRlDatasets)
#include "tst_rl_datasets.moc"
