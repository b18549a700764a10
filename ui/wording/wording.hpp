#pragma once
// Counts in sentences: "1 row", "2,284 rows", with the user's digit grouping.
#include <QLocale>
#include <QString>

namespace aaren::ui {

inline QString countOf(qlonglong count, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 %2").arg(QLocale().toString(count), count == 1 ? singular : plural);
}

}  // namespace aaren::ui
