#pragma once
// Every keyboard shortcut of the Explore page and of lessons, and an overlay that lists them over
// a window ('?' on the page, Help > Keyboard Shortcuts). Any key or click closes the overlay.
#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>

namespace aaren::ui {

struct ShortcutEntry {
  QString keys;         // as printed on the keys: "Space", "PageDown"
  QString description;
  QString group;        // "Explore", "Lessons", "Window"
};

QList<ShortcutEntry> keyboardShortcuts();

class ShortcutOverlay : public QWidget {
  Q_OBJECT

 public:
  // Covers the window that host belongs to; returns the overlay shown (one per window at a time).
  static ShortcutOverlay* showOver(QWidget* host);
  explicit ShortcutOverlay(QWidget* window);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void hideEvent(QHideEvent* event) override;  // gives the keyboard back to where it was
  bool event(QEvent* event) override;  // every key closes the list, Esc too, before any shortcut sees it
  bool eventFilter(QObject* watched, QEvent* event) override;  // follows the window's size

 private:
  QPointer<QWidget> previousFocus_;
};

}  // namespace aaren::ui
