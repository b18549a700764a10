#include "ui/explore/explore_style.hpp"

#include <QApplication>
#include <QFontMetricsF>
#include <QPalette>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "ui/appearance.hpp"

namespace aaren::ui {

ExploreColors exploreColors() {
  const QPalette palette = QApplication::palette();
  ExploreColors c;
  c.background = palette.color(QPalette::Base);
  c.text = palette.color(QPalette::Text);
  c.muted = mutedTextColor(Appearance::instance().theme());
  c.border = palette.color(QPalette::Mid);
  if (Appearance::instance().theme() == Theme::dark) {
    c.faint = QColor(0x3a, 0x3f, 0x48);
    c.node = QColor(0x26, 0x2a, 0x31);
    c.left = QColor(0xf5, 0x9e, 0x0b);
    c.right = QColor(0xa7, 0x8b, 0xfa);
    c.result = QColor(0x4c, 0x8d, 0xff);
    c.complete = QColor(0x34, 0xd3, 0x99);
    c.wrong = QColor(0xf8, 0x71, 0x71);
    c.aaren = QColor(0x4c, 0x8d, 0xff);
    c.transformer = QColor(0xf5, 0x9e, 0x0b);
  } else {
    c.faint = QColor(0xd5, 0xd9, 0xdf);
    c.node = QColor(0xf7, 0xf8, 0xfa);
    c.left = QColor(0xc2, 0x6a, 0x00);
    c.right = QColor(0x7c, 0x3a, 0xed);
    c.result = QColor(0x25, 0x63, 0xd9);
    c.complete = QColor(0x0e, 0x9f, 0x6e);
    c.wrong = QColor(0xdc, 0x26, 0x26);
    c.aaren = QColor(0x25, 0x63, 0xd9);
    c.transformer = QColor(0xc2, 0x6a, 0x00);
  }
  return c;
}

QColor withAlpha(QColor color, int alpha) {
  color.setAlpha(alpha);
  return color;
}

qreal explorePenWidth() { return 1.5 * Appearance::instance().chartScale(); }

QFont exploreFont(const QFont& base, qreal factor, bool bold) {
  QFont font = scaledFont(base, factor);
  font.setBold(bold);
  return font;
}

QFont fittedFont(const QFont& font, const QStringList& lines, const QSizeF& box, qreal maxFactor, qreal minFactor) {
  const QFontMetricsF metrics(font);
  qreal widest = 1;
  for (const QString& line : lines) widest = std::max(widest, metrics.horizontalAdvance(line));
  const qreal tallest = metrics.height() * std::max<qsizetype>(1, lines.size());
  const qreal factor = std::clamp(std::min({maxFactor, box.width() / widest, box.height() / tallest}), minFactor, maxFactor);
  return scaledFont(font, factor);
}

QString formatNumber(double value, int significantDigits) {
  if (std::isnan(value)) return QStringLiteral("NaN");
  if (std::isinf(value)) return value < 0 ? QStringLiteral("\u2212\u221e") : QStringLiteral("\u221e");
  // -0.0001 rounded to "-0" would read as a different number from "0".
  if (value == 0) return QStringLiteral("0");
  QString text = QString::number(value, 'g', significantDigits);
  text.replace(QLatin1Char('-'), QChar(0x2212));
  return text;
}

QString formatExact(double value) { return formatNumber(value, 9); }

QString formatVector(std::span<const float> values, int significantDigits) {
  if (values.size() == 1) return formatNumber(values[0], significantDigits);
  QStringList parts;
  for (float x : values) parts << formatNumber(x, significantDigits);
  return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString tokenList(std::span<const int> tokens) {
  if (tokens.empty()) return QStringLiteral("{}");
  bool contiguous = true;
  for (std::size_t i = 1; i < tokens.size(); ++i) contiguous = contiguous && tokens[i] == tokens[i - 1] + 1;
  if (contiguous)
    return tokens.size() == 1 ? QString::number(tokens[0] + 1)
                              : QStringLiteral("%1..%2").arg(tokens.front() + 1).arg(tokens.back() + 1);
  QStringList parts;
  for (int t : tokens) parts << QString::number(t + 1);
  return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

}  // namespace aaren::ui
