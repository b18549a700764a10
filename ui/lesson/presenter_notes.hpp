#pragma once
// The lecturer's own window beside the projection: the scene's title and place in the lesson, its
// narration, its question with the answer (always shown here, never to the class before R), the
// next scene's title and the time since the lesson began. It follows the lesson bar. When the
// computer has a second screen, it opens there as the lesson opens (the class sees the first
// screen); otherwise View > Presenter Notes (N) opens it as an ordinary window.
#include <QElapsedTimer>
#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QScreen;
class QTimer;

namespace aaren::ui {

class LessonPlayer;
struct LessonScene;

class PresenterNotes : public QWidget {
  Q_OBJECT

 public:
  // A window of its own (Qt::Window) that `player`'s window owns.
  explicit PresenterNotes(LessonPlayer& player, QWidget* ownerWindow);

  // The screen for the notes: another screen than the one the class sees, or null when the
  // computer has only that one.
  static QScreen* secondScreen(const QList<QScreen*>& screens, const QScreen* classScreen);
  // Shows the notes on `screen` (maximized there), or as an ordinary window when it is null.
  void showOn(QScreen* screen);

  // What the window shows, as text.
  QString positionText() const;
  QString narrationText() const;
  QString questionText() const;
  QString nextText() const;
  QString elapsedText() const;
  qint64 elapsedMs() const;

  // "0:07", "12:34", "1:02:03": minutes and seconds, hours when there are any.
  static QString formatElapsed(qint64 ms);

 public slots:
  void restartClock();  // at the lesson's start, or when the lecturer asks

 private:
  void showScene();
  void tick();
  void applyAppearance();

  LessonPlayer& player_;
  QElapsedTimer clock_;
  QTimer* ticker_;
  QLabel* position_;
  QLabel* elapsed_;
  QLabel* narration_;
  QLabel* question_;
  QLabel* next_;
  QPushButton* restart_;
};

}  // namespace aaren::ui
