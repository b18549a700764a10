#pragma once
// Where an animation stands: a position 0..count (0 = nothing done yet, count = all steps done),
// moved by hand (step, seek, start, end) or by a timer at a chosen speed. Views draw the recorded
// frame of the position, so going back is as exact as going forward.
#include <QObject>
#include <QTimer>
#include <functional>

class QWidget;

namespace aaren::ui {

class StepController : public QObject {
  Q_OBJECT

 public:
  static constexpr double kMinSpeed = 0.25;     // steps per second
  static constexpr double kMaxSpeed = 20.0;
  static constexpr double kDefaultSpeed = 1.5;

  explicit StepController(QObject* parent = nullptr);

  int position() const { return position_; }
  int count() const { return count_; }
  bool atEnd() const { return position_ == count_; }
  bool isPlaying() const { return timer_.isActive(); }
  double speed() const { return speed_; }

 public slots:
  void setCount(int count);        // keeps the position when it still exists
  void setPosition(int position);  // clamped to 0..count; a seek pauses playback
  void stepForward();
  void stepBack();
  void toStart();
  void toEnd();
  void play();  // from the start again when at the end
  void pause();
  void togglePlay();
  void setSpeed(double stepsPerSecond);  // clamped to kMinSpeed..kMaxSpeed

 signals:
  void positionChanged(int position);
  void countChanged(int count);
  void playingChanged(bool playing);
  void speedChanged(double stepsPerSecond);

 private:
  void advance();
  void moveTo(int position);

  QTimer timer_;
  int position_ = 0;
  int count_ = 0;
  double speed_ = kDefaultSpeed;
};

// The keys of an animation on `owner` and its children: Space plays and pauses, Left and Right
// step, Home and End go to the ends, '=' and '-' change the speed by kSpeedStep (then
// `speedChanged` hears of it). `controller` names the animation when a key is pressed.
inline constexpr double kSpeedStep = 1.5;
void bindTransportKeys(QWidget& owner, const std::function<StepController&()>& controller,
                       const std::function<void()>& speedChanged = {});

}  // namespace aaren::ui
