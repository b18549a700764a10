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
      {QObject::tr("1 to 5"), QObject::tr("scan tree / cell / Transformer RNN / linear attention / state size"), explore},
      {QObject::tr("E"), QObject::tr("errata on / off (scan: printed Algorithm 1; cell: printed update)"), explore},
      {QObject::tr("S / H / K / A"),
       QObject::tr("scan: sequential / Hillis\u2013Steele / Brent\u2013Kung / all three"), explore},
      {QObject::tr("P"), QObject::tr("presenter mode on / off"), explore},
      {QObject::tr("?"), QObject::tr("this list"), explore},
      {QObject::tr("PageDown / PageUp"), QObject::tr("next / previous scene"), lessons},
      {QObject::tr("Right / Left"), QObject::tr("next / previous step within a scene"), lessons},
      {QObject::tr("R"), QObject::tr("reveal the answer to the scene's question"), lessons},
      {QObject::tr("12 Enter, G 12 Enter"), QObject::tr("go to scene 12"), lessons},
      {QObject::tr("N"), QObject::tr("presenter notes: narration, next scene, timer"), lessons},
      {QObject::tr("B / ."), QObject::tr("black screen, and back"), window},
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

namespace {

// Where the overlay's groups go at one text size: how many groups fill the first column (all of
// them for one column) and how large the whole list is.
struct OverlayLayout {
  qreal scale = 1.15;
  qreal line = 0, keyWidth = 0, textWidth = 0, columnWidth = 0, columnHeight = 0;
  int split = 0;
  QSizeF size;
};

OverlayLayout layOut(const QFont& base, qreal scale, const QList<ShortcutEntry>& entries, const QStringList& groups,
                     const QList<int>& groupSizes, const QSizeF& room) {
  OverlayLayout l;
  l.scale = scale;
  const QFont keyFont = exploreFont(base, scale, true), textFont = exploreFont(base, scale);
  const QFontMetricsF fm(textFont), keys(keyFont);
  l.line = fm.height() * 1.35;
  for (const ShortcutEntry& e : entries) {
    l.keyWidth = std::max(l.keyWidth, keys.horizontalAdvance(e.keys));
    l.textWidth = std::max(l.textWidth, fm.horizontalAdvance(e.description));
  }
  l.columnWidth = l.keyWidth + l.textWidth + 3 * l.line;
  const auto groupHeight = [&l](int rows) { return l.line * (1.2 + rows + 0.6); };
  qreal oneColumn = 0;
  for (int rows : groupSizes) oneColumn += groupHeight(rows);
  const qreal frame = l.line * 3;  // the heading above, the closing line below
  l.split = int(groups.size());
  l.columnHeight = oneColumn;
  // Too tall for the window (a projector's 1280 x 720 in presenter mode): the groups flow into a
  // second column when the window is wide enough for two.
  if (frame + oneColumn > room.height() && groups.size() > 1 && 2 * l.columnWidth + 3 * l.line <= room.width()) {
    qreal left = 0;
    for (int g = 0; g + 1 < groups.size(); ++g) {
      left += groupHeight(groupSizes[g]);
      const qreal tallest = std::max(left, oneColumn - left);
      if (tallest < l.columnHeight) {
        l.columnHeight = tallest;
        l.split = g + 1;
      }
    }
  }
  const bool twoColumns = l.split < groups.size();
  l.size = QSizeF(twoColumns ? 2 * l.columnWidth + l.line : l.columnWidth, frame + l.columnHeight);
  return l;
}

}  // namespace

void ShortcutOverlay::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const ExploreColors colors = exploreColors();
  p.fillRect(rect(), withAlpha(colors.background, 235));
  const QList<ShortcutEntry> entries = keyboardShortcuts();
  QStringList groups;
  QList<int> groupSizes;
  for (const ShortcutEntry& e : entries) {
    if (!groups.contains(e.group)) {
      groups << e.group;
      groupSizes << 0;
    }
    ++groupSizes[groups.indexOf(e.group)];
  }
  // The largest text that fits, in one column or two; below 0.7 of it the list stays at 0.7.
  OverlayLayout l;
  for (const qreal scale : {1.15, 1.0, 0.9, 0.8, 0.7}) {
    l = layOut(font(), scale, entries, groups, groupSizes, size());
    if (l.size.height() <= height() && l.size.width() <= width()) break;
  }
  const qreal line = l.line;
  const QFont keyFont = exploreFont(font(), l.scale, true), textFont = exploreFont(font(), l.scale);
  const qreal top = std::max(line * 0.5, (height() - l.size.height()) / 2);
  const qreal x = std::max(line, (width() - l.size.width()) / 2);
  p.setFont(exploreFont(font(), l.scale * 1.3, true));
  p.setPen(colors.text);
  p.drawText(QRectF(x, top, l.size.width(), line * 1.4), Qt::AlignLeft | Qt::AlignVCenter, tr("Keyboard shortcuts"));
  const qreal first = top + line * 2;
  qreal y = first, columnX = x;
  for (int g = 0; g < groups.size(); ++g) {
    if (g == l.split) {
      y = first;
      columnX = x + l.columnWidth + line;
    }
    const QString& group = groups[g];
    p.setFont(keyFont);
    p.setPen(colors.result);
    p.drawText(QRectF(columnX, y, l.columnWidth, line), Qt::AlignLeft | Qt::AlignVCenter, group);
    y += line * 1.2;
    for (const ShortcutEntry& e : entries) {
      if (e.group != group) continue;
      p.setFont(keyFont);
      p.setPen(colors.text);
      p.drawText(QRectF(columnX + line, y, l.keyWidth, line), Qt::AlignLeft | Qt::AlignVCenter, e.keys);
      p.setFont(textFont);
      p.setPen(colors.muted);
      p.drawText(QRectF(columnX + 2 * line + l.keyWidth, y, l.textWidth + line, line), Qt::AlignLeft | Qt::AlignVCenter,
                 e.description);
      y += line;
    }
    y += line * 0.6;
  }
  p.setFont(textFont);
  p.setPen(colors.muted);
  p.drawText(QRectF(x, first + l.columnHeight, l.size.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
             tr("Any key or click closes this list."));
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
