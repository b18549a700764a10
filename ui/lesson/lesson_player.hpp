#pragma once
// The lesson bar: above the pages while a lesson is open, it shows the lesson's title, "Scene k of
// n", the scene's narration as a large caption, and its question, whose answer R reveals.
// PageDown and PageUp (what a presenter's clicker sends) move between scenes; within a scene the
// Explore page's own keys step. A scene's number and Enter, or G and the number, go to that scene
// (scene_number_entry.hpp). The presenter notes (presenter_notes.hpp) open on a second screen
// when there is one, else from View > Presenter Notes (N). The bar only says which scene to show (sceneShown); LessonStage
// shows it on the pages.
#include <QFrame>

class QScreen;

#include "ui/lesson/lesson.hpp"

class QAction;
class QLabel;
class QPushButton;

namespace aaren::ui {

class PresenterNotes;
class SceneNumberEntry;

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
  QString goToText() const;      // "Go to scene 1…" while a number is typed, or why it cannot

  // The current scene's answer as the reveal shows it: the lesson's words, then what was measured
  // when the scene measures something (setMeasurement).
  QString sceneAnswer() const;
  // Words about this machine's measurement for the current scene's answer; forgotten when the
  // scene changes.
  void setMeasurement(const QString& text);

  SceneNumberEntry& sceneNumberEntry() const { return *numberEntry_; }
  // View > Presenter Notes (N): enabled while a lesson is open; shows the notes window.
  QAction* presenterNotesAction() const { return notesAction_; }
  PresenterNotes* presenterNotes() const { return notes_; }  // null until first shown

 public slots:
  void showScene(int index);  // clamped to the lesson's scenes; hides the answer
  void nextScene();
  void previousScene();
  void toggleReveal();  // shows the answer, or hides it again
  void closeLesson();   // hides the bar and forgets the lesson
  void goToScene(int number);  // 1-based, as typed; a number past the end is refused in the bar
  // The notes window: on `screen`, or as an ordinary window when it is null.
  void showPresenterNotes(QScreen* screen = nullptr);

 signals:
  // The scene to show on the pages, before or after its reveal.
  void sceneShown(const aaren::ui::LessonScene& scene, bool revealed);
  void lessonOpened();
  void answerChanged();  // a measurement changed the current scene's answer
  void closed();

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void refresh();
  void applyAppearance();
  // The lesson's name gives way where the scene's title would wrap beside it: on a 1280 x 720
  // projector every line of the bar is a line the slide does not have.
  void fitTitle();
  void showTyping(const QString& digits, bool typing);

  Lesson lesson_;
  int index_ = 0;
  bool revealed_ = false;
  QString measurement_;
  SceneNumberEntry* numberEntry_;
  QAction* notesAction_;
  PresenterNotes* notes_ = nullptr;
  QLabel* goTo_;
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
