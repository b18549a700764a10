#include "ui/explore/step_controller.hpp"

#include <QKeySequence>
#include <QShortcut>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace aaren::ui {

StepController::StepController(QObject* parent) : QObject(parent) {
  timer_.setInterval(int(std::lround(1000.0 / speed_)));
  connect(&timer_, &QTimer::timeout, this, &StepController::advance);
}

void StepController::setCount(int count) {
  count = std::max(0, count);
  if (count == count_) return;
  count_ = count;
  emit countChanged(count_);
  if (position_ > count_) moveTo(count_);
  if (atEnd()) pause();
}

void StepController::setPosition(int position) {
  pause();
  moveTo(position);
}

void StepController::stepForward() { setPosition(position_ + 1); }

void StepController::stepBack() { setPosition(position_ - 1); }

void StepController::toStart() { setPosition(0); }

void StepController::toEnd() { setPosition(count_); }

void StepController::play() {
  if (isPlaying() || count_ == 0) return;
  if (atEnd()) moveTo(0);
  timer_.start();
  emit playingChanged(true);
}

void StepController::pause() {
  if (!isPlaying()) return;
  timer_.stop();
  emit playingChanged(false);
}

void StepController::togglePlay() {
  if (isPlaying()) pause();
  else play();
}

void StepController::setSpeed(double stepsPerSecond) {
  const double speed = std::clamp(stepsPerSecond, kMinSpeed, kMaxSpeed);
  if (speed == speed_) return;
  speed_ = speed;
  timer_.setInterval(int(std::lround(1000.0 / speed_)));
  emit speedChanged(speed_);
}

void StepController::advance() {
  moveTo(position_ + 1);
  if (atEnd()) pause();
}

void StepController::moveTo(int position) {
  position = std::clamp(position, 0, count_);
  if (position == position_) return;
  position_ = position;
  emit positionChanged(position_);
}

void bindTransportKeys(QWidget& owner, const std::function<StepController&()>& controller,
                       const std::function<void()>& speedChanged) {
  const auto bind = [&](Qt::Key key, std::function<void()> action) {
    auto* shortcut = new QShortcut(QKeySequence(key), &owner);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(shortcut, &QShortcut::activated, &owner, std::move(action));
  };
  bind(Qt::Key_Space, [controller] { controller().togglePlay(); });
  bind(Qt::Key_Left, [controller] { controller().stepBack(); });
  bind(Qt::Key_Right, [controller] { controller().stepForward(); });
  bind(Qt::Key_Home, [controller] { controller().toStart(); });
  bind(Qt::Key_End, [controller] { controller().toEnd(); });
  const auto speedBy = [controller, speedChanged](double factor) {
    return [controller, speedChanged, factor] {
      controller().setSpeed(controller().speed() * factor);
      if (speedChanged) speedChanged();
    };
  };
  bind(Qt::Key_Equal, speedBy(kSpeedStep));  // '+' unshifted; a shifted '+' is the owner's to catch
  bind(Qt::Key_Minus, speedBy(1 / kSpeedStep));
}

}  // namespace aaren::ui
