#include "ui/appearance.hpp"

#include <QApplication>
#include <QFontInfo>
#include <QPointer>
#include <algorithm>

namespace aaren::ui {

// Fonts given in pixels (some platform themes do that) scale by their pixel size.
QFont scaledFont(QFont font, qreal factor) {
  if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * factor);
  else font.setPixelSize(qRound(font.pixelSize() * factor));
  return font;
}

QFont atLeastPixels(QFont font, int pixels) {
  if (QFontInfo(font).pixelSize() < pixels) font.setPixelSize(pixels);
  return font;
}

qreal pointSizeOf(const QFont& font) {
  constexpr qreal kPointsPerPixelAt96Dpi = 0.75;
  return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize() * kPointsPerPixelAt96Dpi;
}

Appearance& Appearance::instance() {
  static QPointer<Appearance> appearance;
  if (!appearance) appearance = new Appearance(qApp);
  return *appearance;
}

Appearance::Appearance(QObject* parent) : QObject(parent), baseFont_(QApplication::font()) {}

void Appearance::setTheme(Theme theme) {
  theme_ = theme;
  apply();
}

void Appearance::setPresenterMode(bool on) {
  if (on == presenterMode_) return;
  // The user may have changed the application font since the last time (system settings).
  if (on) baseFont_ = QApplication::font();
  presenterMode_ = on;
  apply();
}

void Appearance::setPresenterFontScale(qreal scale) {
  const qreal clamped = std::clamp(scale, kMinPresenterFontScale, kMaxPresenterFontScale);
  if (clamped == presenterFontScale_) return;
  presenterFontScale_ = clamped;
  if (presenterMode_) apply();
  else emit changed();
}

void Appearance::apply() {
  const QFont font = presenterMode_ ? scaledFont(baseFont_, presenterFontScale_) : baseFont_;
  QApplication::setPalette(paletteFor(theme_));
  QApplication::setFont(font);
  qApp->setStyleSheet(styleSheetFor(theme_, pointSizeOf(font)));
  emit changed();
}

}  // namespace aaren::ui
