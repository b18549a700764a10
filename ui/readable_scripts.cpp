#include "ui/readable_scripts.hpp"

#include <QFontInfo>

#include "ui/appearance.hpp"

namespace aaren::ui {

namespace {

// What Qt draws a script at (QFontPrivate::smallCapsFontPrivate).
int scriptPixels(int pixels) { return (pixels * 7 + 5) / 10; }

}  // namespace

QString withReadableScripts(QString html, const QFont& font) {
  if (!Appearance::instance().presenterMode()) return html;
  if (scriptPixels(QFontInfo(font).pixelSize()) >= kPresenterMinimumTextPixels) return html;
  int pixels = kPresenterMinimumTextPixels;
  while (scriptPixels(pixels) < kPresenterMinimumTextPixels) ++pixels;
  for (const char* tag : {"sub", "sup"})
    html.replace(QStringLiteral("<%1>").arg(QLatin1String(tag)),
                 QStringLiteral("<%1 style=\"font-size:%2px\">").arg(QLatin1String(tag)).arg(pixels));
  return html;
}

}  // namespace aaren::ui
