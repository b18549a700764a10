#pragma once
// The cart and pole, the classic-control equations with a continuous force.
//   state        x (m), xdot (m/s), theta (from upright, radians), thetadot (rad/s)
//   action       a in [-1, 1], clipped; the force on the cart is F = 10 a (N)
//   dynamics     gravity 9.8, cart 1.0 kg, pole 0.1 kg, half-length l = 0.5, tau 0.02 s:
//                temp      = (F + m_p l thetadot^2 sin theta) / (m_c + m_p)
//                thetaacc  = (g sin theta - cos theta temp) / (l (4/3 - m_p cos^2 theta / (m_c + m_p)))
//                xacc      = temp - m_p l thetaacc cos theta / (m_c + m_p)
//                explicit Euler: x += tau xdot, xdot += tau xacc, theta += tau thetadot,
//                thetadot += tau thetaacc
//   observation  balancing: (x, xdot, theta, thetadot); swing-up: (x, xdot, cos theta, sin theta,
//                thetadot), since its pole turns all the way round and theta grows without bound
//
// "cartpole", balancing: reward +1 for every step taken; terminal once |x| > 2.4 or |theta| > 12
// degrees; 500 steps; each state variable starts uniform in [-0.05, 0.05].
//
// "cartpole-swingup", the task that needs planning: the pole starts hanging down (theta = pi plus
// uniform [-0.05, 0.05], the rest as balancing) and must be swung up by pumping the cart to and fro
// over a hundred steps and more, then held. Reward (1 + cos theta) / 2 - 0.01 a^2 per step, between
// about -0.01 (hanging) and 1 (upright); terminal once |x| > 3 (the end of a longer track); 500
// steps.
#include "core/rl/environment.hpp"

namespace aaren::rl {

class CartPole : public Environment {
 public:
  static constexpr double kGravity = 9.8, kCartMass = 1.0, kPoleMass = 0.1, kHalfLength = 0.5, kTau = 0.02;
  static constexpr double kForceScale = 10.0;
  static constexpr double kBalanceTrack = 2.4, kSwingUpTrack = 3.0;
  static constexpr double kBalanceAngle = 12.0 * 3.14159265358979323846 / 180.0;
  static constexpr int kTimeLimit = 500;

  explicit CartPole(bool swingUp);
  const EnvironmentSpec& spec() const override;

  // One Euler step of the equations above with force `force` (N), in place: (x, xdot, theta, thetadot).
  static void integrate(std::span<double> state, double force);

 protected:
  std::vector<double> draw_start(std::uint64_t seed) const override;
  std::vector<double> observe(std::span<const double> state) const override;
  std::pair<double, bool> advance(std::vector<double>& state, std::span<const double> action) const override;

 private:
  bool swing_up_;
};

}  // namespace aaren::rl
