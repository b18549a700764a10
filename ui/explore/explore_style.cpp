#include "ui/explore/explore_style.hpp"

#include <QApplication>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>
#include <QScrollArea>
#include <QStringList>
#include <QWidget>
#include <algorithm>
#include <cmath>

#include "ui/appearance.hpp"
#include "ui/theme.hpp"

namespace aaren::ui {

namespace {

// The colours the palette does not give, each with its dark and its light form.
struct ThemedColor {
  QColor ExploreColors::*role;
  QRgb dark;
  QRgb light;
};

constexpr ThemedColor kThemedColors[] = {
    {&ExploreColors::faint,       0x3a3f48, 0xd5d9df},
    {&ExploreColors::node,        0x262a31, 0xf7f8fa},
    {&ExploreColors::left,        0xf59e0b, 0xc26a00},
    {&ExploreColors::right,       0xa78bfa, 0x7c3aed},
    {&ExploreColors::result,      0x4c8dff, 0x2563d9},
    {&ExploreColors::complete,    0x34d399, 0x0e9f6e},
    {&ExploreColors::wrong,       0xf87171, 0xdc2626},
    {&ExploreColors::lit,         0xfacc15, 0xfacc15},
    {&ExploreColors::aaren,       0x4c8dff, 0x2563d9},
    {&ExploreColors::transformer, 0xf59e0b, 0xc26a00},
};

ExploreColors colorsOf(Theme theme, const QPalette& palette) {
  ExploreColors c;
  c.background = palette.color(QPalette::Base);
  c.text = palette.color(QPalette::Text);
  c.muted = mutedTextColor(theme);
  c.border = palette.color(QPalette::Mid);
  for (const ThemedColor& themed : kThemedColors)
    c.*themed.role = QColor(theme == Theme::dark ? themed.dark : themed.light);
  return c;
}

}  // namespace

ExploreColors exploreColors() { return colorsOf(Appearance::instance().theme(), QApplication::palette()); }

ExploreColors exploreColors(Theme theme) { return colorsOf(theme, paletteFor(theme)); }

ExploreColors beginPainting(QPainter& painter, const QWidget& widget) {
  painter.setRenderHint(QPainter::Antialiasing);
  const ExploreColors colors = exploreColors();
  painter.fillRect(widget.rect(), colors.background);
  return colors;
}

QSize sizeInLines(const QWidget& widget, int widthInLines, int heightInLines) {
  const int line = widget.fontMetrics().height();
  return QSize(widthInLines * line, heightInLines * line);
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

QScrollArea* scrolledDrawing(QWidget* content, const QString& objectName, QWidget* parent) {
  auto* scroll = new QScrollArea(parent);
  scroll->setObjectName(objectName);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setFocusPolicy(Qt::NoFocus);
  return scroll;
}

int minimumTextPixels() {
  return Appearance::instance().presenterMode() ? kMinimumPresenterTextPixels : kMinimumTextPixels;
}

int pixelSizeOf(const QFont& font) { return QFontInfo(font).pixelSize(); }

QFont atLeastReadable(QFont font) { return atLeastPixels(std::move(font), minimumTextPixels()); }

namespace {

int smallestPainted = 0;

}  // namespace

void setPaintFont(QPainter& painter, const QFont& font) {
  const int pixels = pixelSizeOf(font);
  smallestPainted = smallestPainted == 0 ? pixels : std::min(smallestPainted, pixels);
  painter.setFont(font);
}

void resetPaintedTextLog() { smallestPainted = 0; }

int smallestPaintedPixelSize() { return smallestPainted; }

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

namespace {

template <class T>
QString formatNumbers(std::span<const T> values, int significantDigits) {
  if (values.size() == 1) return formatNumber(double(values[0]), significantDigits);
  QStringList parts;
  for (const T x : values) parts << formatNumber(double(x), significantDigits);
  return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

}  // namespace

QString formatVector(std::span<const float> values, int significantDigits) {
  return formatNumbers(values, significantDigits);
}

QString formatVector(std::span<const double> values, int significantDigits) {
  return formatNumbers(values, significantDigits);
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
