#include "core/rl/policies.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "core/rl/cart_pole.hpp"
#include "core/rl/pendulum.hpp"
#include "core/util/eigen_core.hpp"
#include <Eigen/Cholesky>

namespace aaren::rl {

namespace {

using Dense = Eigen::MatrixXd;
using Step = std::function<Eigen::VectorXd(const Eigen::VectorXd& state, double input)>;

// The discrete LQR gain K (u = -K s) of a step linearized about s = 0, u = 0 by central differences.
Eigen::RowVectorXd lqr_gain(const Step& step, int n, const Eigen::VectorXd& state_weights, double input_weight) {
  constexpr double h = 1e-6;
  Dense a(n, n), b(n, 1);
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd up = Eigen::VectorXd::Zero(n), down = up;
    up(j) = h;
    down(j) = -h;
    a.col(j) = (step(up, 0) - step(down, 0)) / (2 * h);
  }
  b.col(0) = (step(Eigen::VectorXd::Zero(n), h) - step(Eigen::VectorXd::Zero(n), -h)) / (2 * h);
  const Dense q = state_weights.asDiagonal();
  const Dense r = Dense::Constant(1, 1, input_weight);
  Dense p = q;
  for (int iteration = 0; iteration < 100000; ++iteration) {
    const Dense gain = (r + b.transpose() * p * b).ldlt().solve(b.transpose() * p * a);
    const Dense next = q + a.transpose() * p * (a - b * gain);
    const double change = (next - p).cwiseAbs().maxCoeff();
    p = next;
    if (change < 1e-12 * (1 + p.cwiseAbs().maxCoeff())) break;
  }
  return (r + b.transpose() * p * b).ldlt().solve(b.transpose() * p * a).row(0);
}

double sign(double x) { return x >= 0 ? 1.0 : -1.0; }

class PendulumExpert : public Policy {
 public:
  PendulumExpert() {
    gain_ = lqr_gain(
        [](const Eigen::VectorXd& s, double u) {
          const double speed = s(1) + (15.0 * std::sin(s(0)) + 3.0 * u) * Pendulum::kDt;
          return Eigen::Vector2d(s(0) + speed * Pendulum::kDt, speed).eval();
        },
        2, Eigen::Vector2d(1.0, 0.1), 0.001);
  }
  std::vector<double> act(const Environment& environment) override {
    const double theta = angle_normalize(environment.state()[0]), speed = environment.state()[1];
    const double energy = 0.5 * speed * speed + 15.0 * std::cos(theta);
    if (std::abs(theta) < kCatchAngle && std::abs(energy - 15.0) < kCatchEnergy)
      return {-(gain_(0) * theta + gain_(1) * speed)};
    // Below the top's energy, push along the motion; above it, against.
    return {Pendulum::kMaxTorque * sign(speed) * (energy < 15.0 ? 1.0 : -1.0)};
  }

 private:
  static constexpr double kCatchAngle = 0.5, kCatchEnergy = 3.0;
  Eigen::RowVectorXd gain_;
};

Eigen::VectorXd cart_pole_step(const Eigen::VectorXd& s, double force) {
  std::vector<double> state(s.data(), s.data() + 4);
  CartPole::integrate(state, force);
  return Eigen::Map<const Eigen::VectorXd>(state.data(), 4);
}

class CartPoleExpert : public Policy {
 public:
  explicit CartPoleExpert(bool swingUp) : swing_up_(swingUp) {
    gain_ = lqr_gain(cart_pole_step, 4, Eigen::Vector4d(1.0, 0.1, 10.0, 0.1), 0.01);
  }
  std::vector<double> act(const Environment& environment) override {
    const std::span<const double> s = environment.state();
    const double theta = angle_normalize(s[2]);
    double force = 0;
    if (!swing_up_ || std::abs(theta) < kCatchAngle) {
      force = -(gain_(0) * s[0] + gain_(1) * s[1] + gain_(2) * theta + gain_(3) * s[3]);
    } else {
      // The pole's energy with its effective length 4l/3: 0 upright at rest, -2g hanging at rest.
      const double length = 4.0 / 3.0 * CartPole::kHalfLength;
      const double energy = 0.5 * length * s[3] * s[3] + CartPole::kGravity * (std::cos(theta) - 1);
      // The cart's acceleration that moves the energy toward 0 (its rate is -thetadot cos theta times
      // the acceleration), bounded so that the centering terms keep the cart on the track.
      const double pump = std::clamp(kPumpGain * energy * sign(s[3] * std::cos(theta)), -kMostPump, kMostPump);
      force = (CartPole::kCartMass + CartPole::kPoleMass) * pump - kCentering * s[0] - kCenteringSpeed * s[1];
    }
    return {std::clamp(force / CartPole::kForceScale, -1.0, 1.0)};
  }

 private:
  // Chosen by a sweep over 30 seeded episodes: 443 of the 500 steps' reward on average, none off the track.
  static constexpr double kCatchAngle = 0.5, kPumpGain = 2.0, kMostPump = 8.0, kCentering = 2.0, kCenteringSpeed = 2.0;
  bool swing_up_;
  Eigen::RowVectorXd gain_;
};

}  // namespace

std::unique_ptr<Policy> make_expert(std::string_view name) {
  if (name == "pendulum") return std::make_unique<PendulumExpert>();
  if (name == "cartpole") return std::make_unique<CartPoleExpert>(false);
  if (name == "cartpole-swingup") return std::make_unique<CartPoleExpert>(true);
  throw std::invalid_argument("unknown environment '" + std::string(name) + "'; choose one of: " + environment_names());
}

std::vector<double> RandomPolicy::act(const Environment& environment) {
  std::vector<double> action(std::size_t(environment.spec().action_dim));
  for (double& a : action) a = uniform_(environment.spec().action_low, environment.spec().action_high);
  return action;
}

NoisyExpert::NoisyExpert(std::string_view environment, ActionNoise noise, std::uint64_t seed)
    : expert_(make_expert(environment)),
      random_(seed ^ 0x9e3779b97f4a7c15ULL),
      noise_(noise),
      coin_(seed),
      gauss_(seed ^ 0xd1b54a32d192ed03ULL) {
  if (!(noise.random_share >= 0 && noise.random_share <= 1))
    throw std::invalid_argument("the random share is a share from 0 to 1, not " + std::to_string(noise.random_share));
  if (!(noise.jitter >= 0))
    throw std::invalid_argument("the jitter is a deviation of 0 or more, not " + std::to_string(noise.jitter));
}

std::vector<double> NoisyExpert::act(const Environment& environment) {
  // Every draw every step, so that one policy's steps do not shift the other's random numbers.
  std::vector<double> expert = expert_->act(environment), random = random_.act(environment);
  for (double& a : expert) a += noise_.jitter * environment.spec().action_high * standard_normal(gauss_);
  return coin_(0.0, 1.0) < noise_.random_share ? random : expert;
}

EpisodeSummary run_episode(Environment& environment, Policy& policy, std::uint64_t seed) {
  EpisodeSummary summary;
  environment.reset(seed);
  for (;;) {
    const StepResult step = environment.step(policy.act(environment));
    summary.total_reward += step.reward;
    ++summary.steps;
    if (step.terminal || step.timeout) {
      summary.terminal = step.terminal;
      return summary;
    }
  }
}

}  // namespace aaren::rl
