#include "ui/lesson/scene_number_entry.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QWidget>

namespace aaren::ui {

namespace {

// Five digits are more scenes than any lesson has; more are a slip of the finger.
constexpr int kMaxDigits = 5;

bool isDigit(const QKeyEvent* key) {
  return key->key() >= Qt::Key_0 && key->key() <= Qt::Key_9 &&
         !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
}

bool isEnter(const QKeyEvent* key) { return key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter; }

}  // namespace

SceneNumberEntry::SceneNumberEntry(QWidget* member, QObject* parent) : QObject(parent), member_(member) {
  qApp->installEventFilter(this);
}

SceneNumberEntry::~SceneNumberEntry() {
  if (qApp) qApp->removeEventFilter(this);
}

void SceneNumberEntry::setEnabled(bool enabled) {
  enabled_ = enabled;
  if (!enabled) setDigits({}, false);
}

void SceneNumberEntry::begin() {
  if (enabled_) setDigits({}, true);
}

void SceneNumberEntry::cancel() {
  if (isTyping()) setDigits({}, false);
}

void SceneNumberEntry::setDigits(const QString& digits, bool typing) {
  const bool changed = digits != digits_ || typing != typing_;
  digits_ = digits;
  typing_ = typing;
  if (changed) emit typingChanged(digits_, typing_);
}

// A key press's ShortcutOverride goes to the focus widget and, unless one of them takes it (a text
// field does), on up to the window; the filter sees every step. It is read once, at the window.
bool SceneNumberEntry::atWindow(QObject* watched) const { return member_ && watched == member_->window(); }

// A key press comes first as a ShortcutOverride (before any shortcut), then as a KeyPress unless a
// shortcut took it. The number is read from the override, so a digit the page's shortcuts take is
// seen too; a key the number claims there is swallowed as a KeyPress.
bool SceneNumberEntry::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (!enabled_ || (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)) return false;
  auto* key = static_cast<QKeyEvent*>(event);
  if (type == QEvent::KeyPress) {
    if (claimedKey_ == 0 || key->key() != claimedKey_) return false;
    claimedKey_ = 0;
    key->accept();
    return true;
  }
  if (!atWindow(watched)) return false;
  if (!observeOverride(key)) return false;
  claimedKey_ = key->key();
  event->accept();
  return true;
}

bool SceneNumberEntry::observeOverride(QKeyEvent* key) {
  if (key->isAutoRepeat()) return typing_;
  if (isDigit(key)) {
    if (digits_.size() < kMaxDigits) setDigits(digits_ + QChar(u'0' + (key->key() - Qt::Key_0)), typing_);
    return typing_;
  }
  if (isEnter(key) && !digits_.isEmpty()) {
    finish();
    return true;
  }
  if (key->key() == Qt::Key_Escape && isTyping()) {
    setDigits({}, false);
    return true;
  }
  // Modifier keys alone (Shift pressed on the way to a digit on some layouts) keep the number.
  if (key->key() == Qt::Key_Shift || key->key() == Qt::Key_Control || key->key() == Qt::Key_Alt ||
      key->key() == Qt::Key_Meta)
    return false;
  const bool wasTyping = typing_;
  setDigits({}, false);
  return wasTyping && key->key() == Qt::Key_G;  // a second G ends the entry and does nothing else
}

void SceneNumberEntry::finish() {
  bool ok = false;
  const int number = digits_.toInt(&ok);
  setDigits({}, false);
  if (ok) emit sceneRequested(number);
}

}  // namespace aaren::ui
