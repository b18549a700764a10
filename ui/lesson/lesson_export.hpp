#pragma once
// A lesson out of the application, for slides and a handout: every scene, and every scene's reveal,
// rendered on the window's pages as a PNG with its narration beneath, and one PDF with a page per
// scene (its picture after the reveal, the narration, the question and its answer). The efficiency
// scene is the Efficiency page after its short run has really finished, so its charts hold
// measurements of this machine. The pictures have the window's size (aaren-studio
// --export-lesson uses 1920 x 1080, a projector's), at twice its pixels.
#include <QImage>
#include <QString>
#include <QStringList>

namespace aaren::ui {

class LessonStage;
class MainWindow;
struct Lesson;
struct LessonScene;

// What the scene shows on its page (the Explore page's stage, or the whole Efficiency page),
// after the scene's run when it has one. Throws std::runtime_error when it cannot be shown or
// the run fails.
QImage renderLessonScene(LessonStage& stage, const LessonScene& scene, bool revealed);

// The picture with the lesson's title and "Scene k of n" above it and the narration, the question
// and (revealed) the answer below it, in the theme's colours.
QImage composeLessonSlide(const QImage& picture, const Lesson& lesson, int sceneIndex, bool revealed);

// Writes, into folder (created when missing), NN-ID.png for every scene, NN-ID-answer.png for every
// scene with a question, and LESSONID.pdf; returns their paths in that order. The window must
// hold the Explore page (and the Efficiency page for an efficiency scene) and be shown. Files are
// written whole or not at all; throws std::runtime_error naming the file and the reason.
QStringList exportLesson(MainWindow& window, const Lesson& lesson, const QString& folder);

}  // namespace aaren::ui
