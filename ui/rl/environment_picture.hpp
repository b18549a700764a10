#pragma once
// An environment drawn as the physics it simulates, at one step of an episode: the pendulum as a rod
// about its pivot, the cart and pole on their track (the swing-up's longer one), with the action
// as an arrow (the torque about the pivot, the force on the cart) and a caption. Drawn with the
// theme's colours and presenter mode's thicker lines, at any size; render() draws it into an image
// for export.
#include <QColor>
#include <QString>
#include <QWidget>
#include <optional>
#include <span>
#include <string>

#include "ui/theme.hpp"

namespace aaren::ui {

// Where the bodies are, from an observation of `environment` (core/rl/pendulum.hpp, cart_pole.hpp):
// the angle from upright in radians and, for the cart and pole, the cart's position in metres.
struct EnvironmentPose {
  double angle = 0;
  std::optional<double> cart;  // none for the pendulum
};
// Throws std::invalid_argument for an unknown environment or an observation of the wrong size.
EnvironmentPose environmentPose(const std::string& environment, std::span<const double> observation);

class EnvironmentPicture : public QWidget {
  Q_OBJECT

 public:
  explicit EnvironmentPicture(QWidget* parent = nullptr);

  void setEnvironment(const std::string& environment);  // clears the frame
  // One step: the observation acted on, the action applied (in [-1, 1] of the action range) and the
  // caption under the picture; `accent` colours the moving body (the model's colour).
  void setFrame(std::span<const double> observation, double action, const QString& caption, const QColor& accent);
  void clearFrame(const QString& placeholder);
  // Drawn in `theme` whatever the window's (a report is printed light); none: the window's.
  void setFixedTheme(std::optional<Theme> theme);
  const std::optional<EnvironmentPose>& pose() const { return pose_; }
  double action() const { return action_; }
  QString caption() const { return caption_; }
  // Whether the last paint had to cut the caption (wrapped, it was taller than the picture allows).
  bool captionCut() const { return captionCut_; }
  QSize sizeHint() const override { return {360, 220}; }
  QSize minimumSizeHint() const override { return {200, 140}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::string environment_;
  std::optional<EnvironmentPose> pose_;
  double action_ = 0;
  QString caption_;
  QColor accent_;
  std::optional<Theme> fixedTheme_;
  bool captionCut_ = false;
};

}  // namespace aaren::ui
