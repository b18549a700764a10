#pragma once
// Words in sentences: counts ("1 row", "2,284 rows", with the user's digit grouping) and a
// sentence's first letter.
#include <QLocale>
#include <QString>

namespace aaren::ui {

inline QString countOf(qlonglong count, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 %2").arg(QLocale().toString(count), count == 1 ? singular : plural);
}

// "Classifiers train on the CPU only" from core's "classifiers train ...".
inline QString capitalized(QString text) {
  if (!text.isEmpty()) text[0] = text[0].toUpper();
  return text;
}

}  // namespace aaren::ui
