#include "ui/theme.hpp"

#include <utility>

namespace aaren::ui {

namespace {

struct Colors {
  QColor window, base, alternateBase, text, mutedText, button, border, hover, highlight,
      highlightedText, link, warning, sidebar;
};

Colors colorsFor(Theme theme) {
  if (theme == Theme::dark)
    return {QColor(0x1e, 0x21, 0x27), QColor(0x17, 0x19, 0x1e), QColor(0x26, 0x2a, 0x31),
            QColor(0xe6, 0xe8, 0xeb), QColor(0x9a, 0xa3, 0xae), QColor(0x2b, 0x2f, 0x37),
            QColor(0x3a, 0x3f, 0x48), QColor(0x2f, 0x34, 0x3d), QColor(0x4c, 0x8d, 0xff),
            QColor(0xff, 0xff, 0xff), QColor(0x7a, 0xb0, 0xff), QColor(0xff, 0xb4, 0x54),
            QColor(0x19, 0x1c, 0x21)};
  return {QColor(0xf4, 0xf5, 0xf7), QColor(0xff, 0xff, 0xff), QColor(0xee, 0xf0, 0xf3),
          QColor(0x1f, 0x23, 0x28), QColor(0x5f, 0x68, 0x73), QColor(0xf7, 0xf8, 0xfa),
          QColor(0xd5, 0xd9, 0xdf), QColor(0xe4, 0xe8, 0xee), QColor(0x25, 0x63, 0xd9),
          QColor(0xff, 0xff, 0xff), QColor(0x1d, 0x5b, 0xc9), QColor(0xb4, 0x5a, 0x00),
          QColor(0xeb, 0xee, 0xf2)};
}

}  // namespace

QString themeName(Theme theme) { return theme == Theme::dark ? QStringLiteral("dark") : QStringLiteral("light"); }

std::optional<Theme> themeFromName(const QString& name) {
  const QString key = name.trimmed().toLower();
  if (key == QLatin1String("light")) return Theme::light;
  if (key == QLatin1String("dark")) return Theme::dark;
  return std::nullopt;
}

QPalette paletteFor(Theme theme) {
  const Colors c = colorsFor(theme);
  const std::pair<QPalette::ColorRole, QColor> roles[] = {
      {QPalette::Window, c.window},
      {QPalette::WindowText, c.text},
      {QPalette::Base, c.base},
      {QPalette::AlternateBase, c.alternateBase},
      {QPalette::Text, c.text},
      {QPalette::PlaceholderText, c.mutedText},
      {QPalette::Button, c.button},
      {QPalette::ButtonText, c.text},
      {QPalette::BrightText, QColor(Qt::white)},
      {QPalette::Highlight, c.highlight},
      {QPalette::HighlightedText, c.highlightedText},
      {QPalette::Link, c.link},
      {QPalette::LinkVisited, c.link},
      {QPalette::ToolTipBase, c.base},
      {QPalette::ToolTipText, c.text},
      {QPalette::Light, c.button.lighter(120)},
      {QPalette::Midlight, c.button.lighter(110)},
      {QPalette::Mid, c.border},
      {QPalette::Dark, c.border.darker(130)},
      {QPalette::Shadow, QColor(0, 0, 0, 90)},
  };
  QPalette p;
  for (const auto& [role, color] : roles) p.setColor(role, color);
  const QColor disabled = theme == Theme::dark ? c.mutedText.darker(140) : c.mutedText.lighter(150);
  for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  p.setColor(QPalette::Disabled, QPalette::Highlight, c.border);
  return p;
}

QChart::ChartTheme chartThemeFor(Theme theme) {
  return theme == Theme::dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
}

QColor mutedTextColor(Theme theme) { return colorsFor(theme).mutedText; }

QString styleSheetFor(Theme theme, qreal basePointSize) {
  const Colors c = colorsFor(theme);
  const auto pt = [basePointSize](qreal factor) { return QString::number(basePointSize * factor, 'f', 1) + "pt"; };
  QString css = QStringLiteral(R"(
QWidget#sidebarPanel { background: @sidebar; border-right: 1px solid @border; }
QLabel#appName { font-size: @appNameSize; font-weight: 700; padding: 18px 16px 0px 16px; }
QLabel#appTagline { color: @muted; padding: 2px 16px 14px 16px; }
QListWidget#sidebar { background: transparent; border: none; outline: 0; padding: 0px 8px; }
QListWidget#sidebar::item { padding: 9px 10px; margin: 2px 0px; border-radius: 6px; color: @text; }
QListWidget#sidebar::item:hover { background: @hover; }
QListWidget#sidebar::item:selected { background: @accent; color: @onAccent; }
QWidget#pageHeader { border-bottom: 1px solid @border; }
QLabel#pageTitle { font-size: @pageTitleSize; font-weight: 600; }
QLabel#pageSubtitle { color: @muted; }
QFrame#card { background: @base; border: 1px solid @border; border-radius: 8px; }
QLabel#cardTitle { font-size: @cardTitleSize; font-weight: 600; }
QLabel#hint { color: @muted; }
QLabel#chartNotice { color: @warning; }
QPushButton#primaryButton { background: @accent; color: @onAccent; border: 1px solid @accent; border-radius: 5px;
                            padding: 5px 16px; font-weight: 600; }
QPushButton#primaryButton:hover { background: @accentHover; border-color: @accentHover; }
QPushButton#primaryButton:pressed { background: @accentPressed; border-color: @accentPressed; }
QToolBar { border: none; border-bottom: 1px solid @border; spacing: 4px; padding: 3px 6px; }
QStatusBar { border-top: 1px solid @border; }
QStatusBar QLabel { color: @muted; padding: 0px 6px; }
)");
  const std::pair<const char*, QString> values[] = {
      {"@sidebar", c.sidebar.name()},
      {"@border", c.border.name()},
      {"@muted", c.mutedText.name()},
      {"@text", c.text.name()},
      {"@hover", c.hover.name()},
      {"@accentHover", c.highlight.lighter(112).name()},
      {"@accentPressed", c.highlight.darker(115).name()},
      {"@accent", c.highlight.name()},
      {"@onAccent", c.highlightedText.name()},
      {"@base", c.base.name()},
      {"@warning", c.warning.name()},
      {"@appNameSize", pt(1.35)},
      {"@pageTitleSize", pt(1.6)},
      {"@cardTitleSize", pt(1.15)},
  };
  // Longer names first where one name starts another (@accentHover before @accent).
  for (const auto& [name, value] : values) css.replace(QLatin1String(name), value);
  return css;
}

}  // namespace aaren::ui
