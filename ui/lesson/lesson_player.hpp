#pragma once
// The lesson bar: above the pages while a lesson is open, it shows the lesson's title, "Scene k of
// n", the scene's narration as a large caption, and its question, whose answer R reveals.
// PageDown and PageUp (what a presenter's clicker sends) move between scenes; within a scene the
// Explore page's own keys step. The bar only says which scene to show (sceneShown); LessonStage
// shows it on the pages.
#include <QFrame>

#include "ui/lesson/lesson.hpp"

class QLabel;
class QPushButton;

namespace aaren::ui {

class LessonPlayer : public QFrame {
  Q_OBJECT

 public:
  explicit LessonPlayer(QWidget* parent = nullptr);

  // Shows the bar at the lesson's first scene.
  void setLesson(const Lesson& lesson);
  bool hasLesson() const { return !lesson_.scenes.isEmpty(); }
  const Lesson& lesson() const { return lesson_; }
  int sceneIndex() const { return index_; }  // 0-based
  bool revealed() const { return revealed_; }
  const LessonScene& currentScene() const { return lesson_.scenes.at(index_); }

  // What the bar shows, as text.
  QString positionText() const;  // "Scene 3 of 12 · The (a, c, m) cell …"
  QString narrationText() const;
  QString questionText() const;  // empty when the scene has no question
  QString answerText() const;    // empty until revealed

 public slots:
  void showScene(int index);  // clamped to the lesson's scenes; hides the answer
  void nextScene();
  void previousScene();
  void toggleReveal();  // shows the answer, or hides it again
  void closeLesson();   // hides the bar and forgets the lesson

 signals:
  // The scene to show on the pages, before or after its reveal.
  void sceneShown(const aaren::ui::LessonScene& scene, bool revealed);
  void closed();

 private:
  void refresh();
  void applyAppearance();

  Lesson lesson_;
  int index_ = 0;
  bool revealed_ = false;
  QLabel* lessonTitle_;
  QLabel* position_;
  QLabel* narration_;
  QLabel* question_;
  QLabel* answer_;
  QPushButton* previous_;
  QPushButton* reveal_;
  QPushButton* next_;
  QPushButton* close_;
};

}  // namespace aaren::ui
