#pragma once
// A black screen over the whole window, for when the class should look at the lecturer and not at
// the projection. B or '.' (what a presentation remote's "blank" button sends) blanks the window
// and brings it back; Esc brings it back too. The keys are the window's (View > Blank Screen), so
// they work on every page, in a lesson or not; a text field keeps them as letters.
#include <QPointer>
#include <QWidget>

class QAction;

namespace aaren::ui {

class ScreenBlank : public QWidget {
  Q_OBJECT

 public:
  // The View menu's checkable "Blank Screen" action of `window` (B and '.'), made on first use.
  static QAction* action(QWidget* window);
  // Blanks `window`, or shows it again; returns whether it is blank now.
  static bool toggle(QWidget* window);
  static bool isBlank(const QWidget* window);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;                          // Esc is the blank's, not the window's
  bool eventFilter(QObject* watched, QEvent* event) override;  // follows the window's size
  void hideEvent(QHideEvent* event) override;                  // gives the keyboard back

 private:
  explicit ScreenBlank(QWidget* window);
  static ScreenBlank* find(const QWidget* window);
  void keyPressEvent(QKeyEvent* event) override;

  QPointer<QWidget> previousFocus_;
};

}  // namespace aaren::ui
