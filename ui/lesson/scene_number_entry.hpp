#pragma once
// Going to a scene by its number, as presentation software does: type the digits and press Enter,
// or press G first. After G the digits belong to the number only; without it they also do what
// they do on the page (1, 2 and 3 switch the Explore page's view), which the scene then replaces.
// Esc, or any other key, forgets a number half typed. A text field keeps its digits.
//
// It watches the key presses of the window that `member` is in (an application event filter, so it
// sees the keys before the page's shortcuts take them) while enabled.
#include <QObject>
#include <QPointer>
#include <QString>

class QKeyEvent;
class QWidget;

namespace aaren::ui {

class SceneNumberEntry : public QObject {
  Q_OBJECT

 public:
  explicit SceneNumberEntry(QWidget* member, QObject* parent = nullptr);
  ~SceneNumberEntry() override;

  void setEnabled(bool enabled);  // off: forgets the number and watches nothing
  bool isEnabled() const { return enabled_; }
  // After G: the digits typed next are the scene's number and nothing else.
  void begin();
  void cancel();
  bool isTyping() const { return typing_ || !digits_.isEmpty(); }
  QString digits() const { return digits_; }

 signals:
  void sceneRequested(int number);  // 1-based, as the lecturer typed it
  void typingChanged(const QString& digits, bool typing);  // for the bar's "Go to scene …"

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool atWindow(QObject* watched) const;
  // What the key does to the number; true when the number takes the key (the page must not see it).
  bool observeOverride(QKeyEvent* key);
  void finish();
  void setDigits(const QString& digits, bool typing);

  QPointer<QWidget> member_;
  bool enabled_ = false;
  bool typing_ = false;  // after G
  QString digits_;
  int claimedKey_ = 0;  // its KeyPress is swallowed
};

}  // namespace aaren::ui
