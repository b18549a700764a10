#pragma once
// The two colour schemes of the application: a palette for the widgets, a small stylesheet for the
// parts a palette cannot reach (sidebar, page headers, cards) and the matching Qt Charts theme.
#include <QChart>
#include <QColor>
#include <QPalette>
#include <QString>
#include <optional>

namespace aaren::ui {

enum class Theme { light, dark };

QString themeName(Theme theme);  // "light" or "dark": command line and settings
std::optional<Theme> themeFromName(const QString& name);

QPalette paletteFor(Theme theme);
QChart::ChartTheme chartThemeFor(Theme theme);

// Colour for secondary text (subtitles, hints), readable on the theme's window colour.
QColor mutedTextColor(Theme theme);

// Font sizes in the stylesheet follow the application font, so presenter mode scales them too.
QString styleSheetFor(Theme theme, qreal basePointSize);

}  // namespace aaren::ui
