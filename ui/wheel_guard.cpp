#include "ui/wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>

namespace aaren::ui {
namespace {

bool guarded(const QObject* object) {
  return qobject_cast<const QAbstractSpinBox*>(object) || qobject_cast<const QComboBox*>(object);
}

}  // namespace

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  if (!guarded(watched)) return false;
  auto* widget = static_cast<QWidget*>(watched);
  // Qt's default for these is WheelFocus: the wheel itself would give them the focus it asks for.
  if (event->type() == QEvent::Polish && widget->focusPolicy() == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
  if (event->type() != QEvent::Wheel || widget->hasFocus()) return false;
  for (QWidget* above = widget->parentWidget(); above; above = above->parentWidget())
    if (auto* area = qobject_cast<QAbstractScrollArea*>(above)) {
      QCoreApplication::sendEvent(area->viewport(), event);
      break;
    }
  return true;  // never the value
}

void installWheelGuard(QApplication& app) {
  static WheelGuard guard;
  app.installEventFilter(&guard);
}

}  // namespace aaren::ui
