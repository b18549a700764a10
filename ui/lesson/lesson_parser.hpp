#pragma once
// Reads a lesson file (docs/lessons.md) into a Lesson. Every mistake, of JSON syntax or of meaning
// (an unknown key, a wrong type, an unknown view, a number out of range, a step the scene does not
// have), is refused with the file, line and column where it is and the reason.
#include <QByteArray>
#include <QString>
#include <stdexcept>

#include "ui/lesson/lesson.hpp"
#include "ui/lesson/positioned_json.hpp"

namespace aaren::ui {

inline const QString kLessonFormat = QStringLiteral("aaren-studio-lesson");
inline constexpr int kLessonFormatVersion = 1;

// what() is "FILE:LINE:COLUMN: reason", as compilers write it.
class LessonError : public std::runtime_error {
 public:
  LessonError(const QString& file, TextPosition position, const QString& reason);
  QString file() const { return file_; }
  TextPosition position() const { return position_; }
  QString reason() const { return reason_; }
  QString message() const { return QString::fromUtf8(what()); }

 private:
  QString file_;
  TextPosition position_;
  QString reason_;
};

// `source` names the text in messages and becomes Lesson::source. Throws LessonError.
Lesson parseLesson(const QByteArray& text, const QString& source);

// A file, or a bundled lesson's id (bundled_lessons.hpp) when no file of that name exists.
// Throws LessonError for a mistake in the lesson, std::runtime_error when it cannot be read.
Lesson readLesson(const QString& fileOrId);

}  // namespace aaren::ui
