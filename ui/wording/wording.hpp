#pragma once
// Words in sentences: counts ("1 row", "2,284 rows", with the user's digit grouping), numbers
// with a fixed number of decimals, and a sentence's first letter.
#include <QLocale>
#include <QString>

namespace aaren::ui {

inline QString countOf(qlonglong count, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 %2").arg(QLocale().toString(count), count == 1 ? singular : plural);
}

// `value` with `decimals` decimals; one that rounds to zero reads "0.0", not "-0.0" (a swing-up's
// first reward is a hair below zero).
inline QString fixedDecimals(double value, int decimals) {
  const QString text = QString::number(value, 'f', decimals);
  return text.toDouble() == 0 ? QString::number(0.0, 'f', decimals) : text;
}

// "Classifiers train on the CPU only" from core's "classifiers train ...".
inline QString capitalized(QString text) {
  if (!text.isEmpty()) text[0] = text[0].toUpper();
  return text;
}

}  // namespace aaren::ui
