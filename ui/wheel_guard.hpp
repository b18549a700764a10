#pragma once
// A wheel turned over a spin box or a combo box that the user has not clicked into scrolls the
// panel under it instead of changing the value: a student scrolling the Train page's settings
// otherwise changes the epoch count without noticing. Clicked into (or tabbed to), the wheel steps
// the value as usual. One filter for the whole application, installed once at start.
#include <QObject>

class QApplication;

namespace aaren::ui {

class WheelGuard : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

void installWheelGuard(QApplication& app);

}  // namespace aaren::ui
