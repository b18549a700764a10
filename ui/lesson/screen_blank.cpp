#include "ui/lesson/screen_blank.hpp"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QPainter>

namespace aaren::ui {

namespace {

const QString kActionName = QStringLiteral("blankScreenAction");

}  // namespace

QAction* ScreenBlank::action(QWidget* window) {
  if (auto* existing = window->findChild<QAction*>(kActionName, Qt::FindDirectChildrenOnly)) return existing;
  auto* action = new QAction(tr("&Blank Screen"), window);
  action->setObjectName(kActionName);
  action->setCheckable(true);
  action->setShortcuts({QKeySequence(Qt::Key_B), QKeySequence(Qt::Key_Period)});
  action->setShortcutContext(Qt::WindowShortcut);
  action->setStatusTip(tr("A black screen for the class; B or '.' again (or Esc) brings the window back"));
  QObject::connect(action, &QAction::triggered, window, [window, action] {
    const bool blank = toggle(window);
    action->setChecked(blank);
  });
  window->addAction(action);  // the keys work with the menu bar folded away (presenter mode)
  return action;
}

ScreenBlank* ScreenBlank::find(const QWidget* window) {
  return window->findChild<ScreenBlank*>(QString(), Qt::FindDirectChildrenOnly);
}

bool ScreenBlank::isBlank(const QWidget* window) {
  const ScreenBlank* blank = find(window);
  return blank && blank->isVisible();
}

bool ScreenBlank::toggle(QWidget* window) {
  ScreenBlank* blank = find(window);
  if (blank && blank->isVisible()) {
    blank->hide();
    return false;
  }
  if (!blank) blank = new ScreenBlank(window);
  if (QWidget* focus = QApplication::focusWidget(); focus && focus != blank) blank->previousFocus_ = focus;
  blank->setGeometry(window->rect());
  blank->raise();
  blank->show();
  blank->setFocus();
  return true;
}

ScreenBlank::ScreenBlank(QWidget* window) : QWidget(window) {
  setObjectName(QStringLiteral("screenBlank"));
  setFocusPolicy(Qt::StrongFocus);
  setCursor(Qt::BlankCursor);
  window->installEventFilter(this);
}

void ScreenBlank::paintEvent(QPaintEvent*) { QPainter(this).fillRect(rect(), Qt::black); }

bool ScreenBlank::event(QEvent* event) {
  // Esc would also leave presenter mode (a window shortcut): while blank it only unblanks.
  if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    event->accept();
    return true;
  }
  return QWidget::event(event);
}

void ScreenBlank::keyPressEvent(QKeyEvent* event) {
  if (event->key() != Qt::Key_Escape) {
    QWidget::keyPressEvent(event);
    return;
  }
  event->accept();
  hide();
}

void ScreenBlank::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  if (auto* action = parentWidget()->findChild<QAction*>(kActionName, Qt::FindDirectChildrenOnly))
    action->setChecked(false);
  if (previousFocus_) previousFocus_->setFocus();
}

bool ScreenBlank::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
  return QWidget::eventFilter(watched, event);
}

}  // namespace aaren::ui
