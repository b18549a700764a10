#pragma once
// The lessons compiled into the application (ui/lesson/lessons/*.json as Qt resources), by id.
#include <QList>
#include <QString>

namespace aaren::ui {

struct BundledLesson {
  QString id;     // "section3"
  QString title;  // "Attention as an RNN in 20 minutes"
  QString path;   // the resource path, readable with QFile
};

QList<BundledLesson> bundledLessons();  // in the order a course takes them (section3 first)
// The resource path of the bundled lesson `id`; empty when there is none.
QString bundledLessonPath(const QString& id);

}  // namespace aaren::ui
