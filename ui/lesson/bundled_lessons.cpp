#include "ui/lesson/bundled_lessons.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <algorithm>

// The lessons are a Qt resource of this static library; a static library's resources are
// registered by hand, once, outside any namespace.
static void registerLessonResources() { Q_INIT_RESOURCE(lessons); }

namespace aaren::ui {

namespace {

const QString kLessonFolder = QStringLiteral(":/lessons");
// The order a course takes them in: the paper's section 3 first; any other after these, by name.
const QStringList kCourseOrder{QStringLiteral("section3"), QStringLiteral("three-rnns"), QStringLiteral("agent-memory")};

void ensureRegistered() {
  static const bool registered = [] {
    registerLessonResources();
    return true;
  }();
  (void)registered;
}

}  // namespace

QList<BundledLesson> bundledLessons() {
  ensureRegistered();
  QList<BundledLesson> lessons;
  const QDir folder(kLessonFolder);
  for (const QString& name : folder.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    QFile file(folder.filePath(name));
    if (!file.open(QIODevice::ReadOnly)) continue;
    // The title only; the lesson itself is read, and checked, when it is opened (tests read each).
    const QJsonObject lesson = QJsonDocument::fromJson(file.readAll()).object();
    lessons.append(
        {QFileInfo(name).completeBaseName(), lesson.value(QStringLiteral("title")).toString(), folder.filePath(name)});
  }
  const auto rank = [](const BundledLesson& lesson) {
    const qsizetype at = kCourseOrder.indexOf(lesson.id);
    return at < 0 ? kCourseOrder.size() : at;
  };
  std::stable_sort(lessons.begin(), lessons.end(),
                   [&](const BundledLesson& a, const BundledLesson& b) { return rank(a) < rank(b); });
  return lessons;
}

QString bundledLessonPath(const QString& id) {
  for (const BundledLesson& lesson : bundledLessons())
    if (lesson.id == id) return lesson.path;
  return {};
}

}  // namespace aaren::ui
