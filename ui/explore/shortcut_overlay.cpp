#include "ui/explore/shortcut_overlay.hpp"

#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QPainter>

#include "ui/explore/explore_style.hpp"

namespace aaren::ui {

QList<ShortcutEntry> keyboardShortcuts() {
  const QString explore = QObject::tr("Explore"), lessons = QObject::tr("Lessons"), window = QObject::tr("Window");
  return {
      {QObject::tr("Right / Left"), QObject::tr("next / previous step"), explore},
      {QObject::tr("Space"), QObject::tr("play / pause"), explore},
      {QObject::tr("Home / End"), QObject::tr("first / last step"), explore},
      {QObject::tr("+ / \u2212"), QObject::tr("faster / slower"), explore},
      {QObject::tr("1 / 2 / 3"), QObject::tr("scan tree / recurrent cell / Transformer as an RNN"), explore},
      {QObject::tr("E"), QObject::tr("errata on / off (scan: printed Algorithm 1; cell: printed update)"), explore},
      {QObject::tr("P"), QObject::tr("presenter mode on / off"), explore},
      {QObject::tr("?"), QObject::tr("this list"), explore},
      {QObject::tr("PageDown / PageUp"), QObject::tr("next / previous scene"), lessons},
      {QObject::tr("Right / Left"), QObject::tr("next / previous step within a scene"), lessons},
      {QObject::tr("R"), QObject::tr("reveal the answer to the scene's question"), lessons},
      {QObject::tr("F11"), QObject::tr("presenter mode"), window},
      {QObject::tr("Esc"), QObject::tr("leave presenter mode"), window},
      {QObject::tr("Ctrl+1 \u2026 Ctrl+9"), QObject::tr("go to a page"), window},
  };
}

ShortcutOverlay* ShortcutOverlay::showOver(QWidget* host) {
  QWidget* window = host->window();
  ShortcutOverlay* overlay = window->findChild<ShortcutOverlay*>(QString(), Qt::FindDirectChildrenOnly);
  if (!overlay) overlay = new ShortcutOverlay(window);
  if (QWidget* focus = QApplication::focusWidget(); focus && focus != overlay) overlay->previousFocus_ = focus;
  overlay->setGeometry(window->rect());
  overlay->raise();
  overlay->show();
  overlay->setFocus();
  return overlay;
}

ShortcutOverlay::ShortcutOverlay(QWidget* window) : QWidget(window) {
  setObjectName(QStringLiteral("shortcutOverlay"));
  setAttribute(Qt::WA_DeleteOnClose);
  setFocusPolicy(Qt::StrongFocus);
  window->installEventFilter(this);
}

bool ShortcutOverlay::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
  return QWidget::eventFilter(watched, event);
}

void ShortcutOverlay::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = exploreColors();
  p.fillRect(rect(), withAlpha(colors.background, 235));
  const QFont keyFont = exploreFont(font(), 1.15, true), textFont = exploreFont(font(), 1.15);
  const QFontMetricsF fm(textFont);
  const qreal line = fm.height() * 1.35;
  const QList<ShortcutEntry> entries = keyboardShortcuts();
  qreal keyWidth = 0, textWidth = 0;
  for (const ShortcutEntry& e : entries) {
    keyWidth = std::max(keyWidth, QFontMetricsF(keyFont).horizontalAdvance(e.keys));
    textWidth = std::max(textWidth, fm.horizontalAdvance(e.description));
  }
  QStringList groups;
  for (const ShortcutEntry& e : entries)
    if (!groups.contains(e.group)) groups << e.group;
  const qreal height = line * (entries.size() + 2 * groups.size() + 2);
  const qreal width = keyWidth + textWidth + 3 * line;
  qreal y = std::max(line, (this->height() - height) / 2);
  const qreal x = std::max(line, (this->width() - width) / 2);
  p.setFont(exploreFont(font(), 1.5, true));
  p.setPen(colors.text);
  p.drawText(QRectF(x, y, width, line * 1.4), Qt::AlignLeft | Qt::AlignVCenter, tr("Keyboard shortcuts"));
  y += line * 2;
  for (const QString& group : groups) {
    p.setFont(exploreFont(font(), 1.15, true));
    p.setPen(colors.result);
    p.drawText(QRectF(x, y, width, line), Qt::AlignLeft | Qt::AlignVCenter, group);
    y += line * 1.2;
    for (const ShortcutEntry& e : entries) {
      if (e.group != group) continue;
      p.setFont(keyFont);
      p.setPen(colors.text);
      p.drawText(QRectF(x + line, y, keyWidth, line), Qt::AlignLeft | Qt::AlignVCenter, e.keys);
      p.setFont(textFont);
      p.setPen(colors.muted);
      p.drawText(QRectF(x + 2 * line + keyWidth, y, textWidth + line, line), Qt::AlignLeft | Qt::AlignVCenter,
                 e.description);
      y += line;
    }
    y += line * 0.6;
  }
  p.setFont(textFont);
  p.setPen(colors.muted);
  p.drawText(QRectF(x, y, width, line), Qt::AlignLeft | Qt::AlignVCenter, tr("Any key or click closes this list."));
}

// The window's shortcuts (Esc leaves presenter mode) would take a key before keyPressEvent sees it:
// while the list is shown, a key only closes it.
bool ShortcutOverlay::event(QEvent* event) {
  if (event->type() == QEvent::ShortcutOverride) {
    event->accept();
    return true;
  }
  return QWidget::event(event);
}

void ShortcutOverlay::keyPressEvent(QKeyEvent* event) {
  event->accept();
  close();
}

void ShortcutOverlay::mousePressEvent(QMouseEvent*) { close(); }

void ShortcutOverlay::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  if (previousFocus_) previousFocus_->setFocus();
}

}  // namespace aaren::ui
