// The reinforcement-learning environments (core/rl): each step against the published equations
// worked out here by hand, clipping of actions and speeds, termination and time limits, seeds that
// reproduce their starts exactly, and the refusals.
#include <QtTest>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/rl/cart_pole.hpp"
#include "core/rl/environment.hpp"
#include "core/rl/pendulum.hpp"

using namespace aaren::rl;

class TestRlEnvironments : public QObject {
  Q_OBJECT

 private slots:
  void pendulumStepsAsPublished_data();
  void pendulumStepsAsPublished();
  void pendulumTimesOutAfter200Steps();
  void cartPoleStepsAsPublished();
  void cartPoleFallsPastTwelveDegreesOrTheTrack_data();
  void cartPoleFallsPastTwelveDegreesOrTheTrack();
  void swingUpStartsHangingAndRewardsUpright();
  void seedsReproduceTheirStarts_data();
  void seedsReproduceTheirStarts();
  void badInputIsRefused();
};

void TestRlEnvironments::pendulumStepsAsPublished_data() {
  QTest::addColumn<double>("theta");
  QTest::addColumn<double>("thetadot");
  QTest::addColumn<double>("torque");
  QTest::newRow("a push") << 1.0 << 0.5 << 1.5;
  QTest::newRow("torque clipped to 2") << -2.0 << -0.25 << 5.0;
  QTest::newRow("torque clipped to -2") << 0.3 << 0.0 << -9.0;
  QTest::newRow("speed clipped to 8") << 1.5 << 7.9 << 2.0;
  QTest::newRow("angle past pi") << 4.5 << -3.0 << 0.0;
}

void TestRlEnvironments::pendulumStepsAsPublished() {
  QFETCH(double, theta);
  QFETCH(double, thetadot);
  QFETCH(double, torque);
  Pendulum pendulum;
  const double start[] = {theta, thetadot};
  pendulum.reset_to(start);
  const double action[] = {torque};
  const StepResult step = pendulum.step(action);
  // By hand: g 10, m 1, l 1, dt 0.05; the reward of the state before the step.
  const double u = std::clamp(torque, -2.0, 2.0);
  double normalized = theta;
  while (normalized >= std::numbers::pi) normalized -= 2 * std::numbers::pi;
  while (normalized < -std::numbers::pi) normalized += 2 * std::numbers::pi;
  const double reward = -(normalized * normalized + 0.1 * thetadot * thetadot + 0.001 * u * u);
  const double nextSpeed = std::clamp(thetadot + (15.0 * std::sin(theta) + 3.0 * u) * 0.05, -8.0, 8.0);
  const double nextAngle = theta + nextSpeed * 0.05;
  QCOMPARE(step.reward, reward);
  QCOMPARE(pendulum.state()[0], nextAngle);
  QCOMPARE(pendulum.state()[1], nextSpeed);
  QCOMPARE(step.observation, (std::vector<double>{std::cos(nextAngle), std::sin(nextAngle), nextSpeed}));
  QVERIFY(!step.terminal && !step.timeout);
}

void TestRlEnvironments::pendulumTimesOutAfter200Steps() {
  Pendulum pendulum;
  pendulum.reset(3);
  const double action[] = {0.0};
  for (int t = 1; t < 200; ++t) QVERIFY(!pendulum.step(action).timeout);
  const StepResult last = pendulum.step(action);
  QVERIFY(last.timeout && !last.terminal);
  QVERIFY_THROWS_EXCEPTION(std::logic_error, pendulum.step(action));
}

void TestRlEnvironments::cartPoleStepsAsPublished() {
  CartPole cartPole(false);
  const double start[] = {0.1, -0.2, 0.05, 0.3};
  cartPole.reset_to(start);
  const double action[] = {0.5};
  const StepResult step = cartPole.step(action);
  // By hand, F = 10 * 0.5: m_c 1, m_p 0.1, l 0.5, g 9.8, tau 0.02.
  const double force = 5.0, total = 1.1, c = std::cos(0.05), s = std::sin(0.05);
  const double temp = (force + 0.1 * 0.5 * 0.3 * 0.3 * s) / total;
  const double thetaacc = (9.8 * s - c * temp) / (0.5 * (4.0 / 3.0 - 0.1 * c * c / total));
  const double xacc = temp - 0.1 * 0.5 * thetaacc * c / total;
  const std::vector<double> expected{0.1 + 0.02 * -0.2, -0.2 + 0.02 * xacc, 0.05 + 0.02 * 0.3, 0.3 + 0.02 * thetaacc};
  for (int i = 0; i < 4; ++i) QCOMPARE(cartPole.state()[std::size_t(i)], expected[std::size_t(i)]);
  QCOMPARE(step.observation, expected);
  QCOMPARE(step.reward, 1.0);
  QVERIFY(!step.terminal);
}

void TestRlEnvironments::cartPoleFallsPastTwelveDegreesOrTheTrack_data() {
  QTest::addColumn<QList<double>>("start");
  QTest::addColumn<bool>("terminal");
  const double twelve = 12.0 * std::numbers::pi / 180.0;
  QTest::newRow("within both") << QList<double>{2.3, 0.0, twelve - 0.01, 0.0} << false;
  QTest::newRow("past 12 degrees") << QList<double>{0.0, 0.0, twelve - 0.001, 1.0} << true;
  QTest::newRow("off the track") << QList<double>{2.399, 1.0, 0.0, 0.0} << true;
  QTest::newRow("off the other end") << QList<double>{-2.399, -1.0, 0.0, 0.0} << true;
}

void TestRlEnvironments::cartPoleFallsPastTwelveDegreesOrTheTrack() {
  QFETCH(QList<double>, start);
  QFETCH(bool, terminal);
  CartPole cartPole(false);
  cartPole.reset_to(std::vector<double>(start.begin(), start.end()));
  const double action[] = {0.0};
  const StepResult step = cartPole.step(action);
  QCOMPARE(step.terminal, terminal);
  QCOMPARE(step.reward, 1.0);  // the step that ends the episode was taken too
  if (terminal) QVERIFY_THROWS_EXCEPTION(std::logic_error, cartPole.step(action));
}

void TestRlEnvironments::swingUpStartsHangingAndRewardsUpright() {
  CartPole swingUp(true);
  const std::vector<double> observation = swingUp.reset(11);
  QCOMPARE(observation.size(), std::size_t(5));  // x, xdot, cos theta, sin theta, thetadot
  QVERIFY(std::abs(swingUp.state()[2] - std::numbers::pi) <= 0.05);
  QCOMPARE(observation[2], std::cos(swingUp.state()[2]));
  QCOMPARE(observation[3], std::sin(swingUp.state()[2]));
  QCOMPARE(observation[4], swingUp.state()[3]);
  const double action[] = {0.0};
  QVERIFY(swingUp.step(action).reward < 0.01);  // hanging: (1 + cos pi) / 2 = 0
  const double upright[] = {0.0, 0.0, 0.0, 0.0};
  swingUp.reset_to(upright);
  const double push[] = {0.5};
  const StepResult step = swingUp.step(push);
  QVERIFY(std::abs(step.reward - ((1 + std::cos(swingUp.state()[2])) / 2 - 0.01 * 0.25)) < 1e-15);
  const double offTrack[] = {2.99, 1.0, 0.0, 0.0};
  swingUp.reset_to(offTrack);
  QVERIFY(swingUp.step(action).terminal);  // past the longer track's end at 3 m
}

void TestRlEnvironments::seedsReproduceTheirStarts_data() {
  QTest::addColumn<QString>("name");
  for (const char* name : {"pendulum", "cartpole", "cartpole-swingup"}) QTest::newRow(name) << QString::fromLatin1(name);
}

void TestRlEnvironments::seedsReproduceTheirStarts() {
  QFETCH(QString, name);
  const auto first = make_environment(name.toStdString()), second = make_environment(name.toStdString());
  QCOMPARE(first->reset(42), second->reset(42));
  QVERIFY(first->reset(42) != first->reset(43));
  // A whole episode of the same actions is the same, step for step.
  first->reset(5);
  second->reset(5);
  for (int t = 0; t < 50; ++t) {
    const double action[] = {std::sin(0.3 * t)};
    const StepResult a = first->step(action), b = second->step(action);
    QCOMPARE(a.observation, b.observation);
    QCOMPARE(a.reward, b.reward);
    if (a.terminal) break;
  }
  // Starts within their documented ranges.
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    first->reset(seed);
    const std::span<const double> state = first->state();
    if (name == QLatin1String("pendulum")) {
      QVERIFY(state[0] >= -std::numbers::pi && state[0] <= std::numbers::pi && std::abs(state[1]) <= 1.0);
    } else {
      const double angle = name == QLatin1String("cartpole") ? state[2] : state[2] - std::numbers::pi;
      QVERIFY(std::abs(state[0]) <= 0.05 && std::abs(state[1]) <= 0.05 && std::abs(angle) <= 0.05 && std::abs(state[3]) <= 0.05);
    }
  }
}

void TestRlEnvironments::badInputIsRefused() {
  try {
    make_environment("mountaincar");
    QFAIL("an unknown environment was made");
  } catch (const std::invalid_argument& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("pendulum, cartpole, cartpole-swingup")), error.what());
  }
  Pendulum pendulum;
  const double three[] = {1.0, 2.0, 3.0};
  try {
    pendulum.reset_to(three);
    QFAIL("three start values for the pendulum");
  } catch (const std::invalid_argument& error) {
    QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("theta, thetadot")), error.what());
  }
  const double notANumber[] = {std::nan(""), 0.0};
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pendulum.reset_to(notANumber));
  const double action[] = {0.0};
  QVERIFY_THROWS_EXCEPTION(std::logic_error, pendulum.step(action));  // before any reset
  pendulum.reset(1);
  const double twoActions[] = {0.0, 1.0}, infinite[] = {INFINITY};
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pendulum.step(twoActions));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pendulum.step(infinite));
}

QTEST_MAIN(TestRlEnvironments)
#include "tst_rl_environments.moc"
