#pragma once
// The transport controls of an animation: start, step back, play/pause, step forward, end, a
// scrub bar over all steps, a speed slider and "step 3 of 7". It drives whichever StepController
// it is given; its keys (Space, Left, Right, Home, End, = and -) are bound by the page that shows it
// (bindTransportKeys, step_controller.hpp).
#include <QIcon>
#include <QPointer>
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace aaren::ui {

class StepController;

class StepBar : public QWidget {
  Q_OBJECT

 public:
  explicit StepBar(QWidget* parent = nullptr);

  void setController(StepController* controller);
  StepController* controller() const { return controller_; }
  void setStepNoun(const QString& noun);  // "step", "token", "block"

 private:
  void refresh();
  void updateIcons();
  QToolButton* makeButton(const QString& toolTip);

  QPointer<StepController> controller_;
  QString noun_;
  QToolButton* start_;
  QToolButton* back_;
  QToolButton* play_;
  QToolButton* forward_;
  QToolButton* end_;
  QSlider* scrub_;
  QLabel* where_;
  QSlider* speed_;
  QLabel* speedLabel_;
  QIcon playIcon_;
  QIcon pauseIcon_;
};

}  // namespace aaren::ui
