#pragma once
// Pendulum swing-up, the classic-control task's equations, so that published returns carry over.
//   state        theta (from upright, radians), thetadot (rad/s)
//   action       torque u in [-2, 2], clipped
//   dynamics     g 10, m 1, l 1, dt 0.05:
//                thetadot' = clip(thetadot + (3 g / (2 l) sin(theta) + 3 / (m l^2) u) dt, -8, 8)
//                theta'    = theta + thetadot' dt
//   reward       -(angle_normalize(theta)^2 + 0.1 thetadot^2 + 0.001 u^2), of the state before the
//                step; angle_normalize maps to [-pi, pi)
//   observation  (cos theta, sin theta, thetadot)
//   episode      200 steps, never terminal; starts uniform in theta [-pi, pi], thetadot [-1, 1]
#include "core/rl/environment.hpp"

namespace aaren::rl {

class Pendulum : public Environment {
 public:
  static constexpr double kGravity = 10.0, kMass = 1.0, kLength = 1.0, kDt = 0.05;
  static constexpr double kMaxTorque = 2.0, kMaxSpeed = 8.0;
  static constexpr int kTimeLimit = 200;

  const EnvironmentSpec& spec() const override;

 protected:
  std::vector<double> draw_start(std::uint64_t seed) const override;
  std::vector<double> observe(std::span<const double> state) const override;
  std::pair<double, bool> advance(std::vector<double>& state, std::span<const double> action) const override;
};

double angle_normalize(double theta);  // to [-pi, pi)

}  // namespace aaren::rl
