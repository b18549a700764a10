#pragma once
// Small line icons for the sidebar, painted at any size in the current palette's text colour
// (highlighted text when selected), so they follow the theme without image files.
#include <QIcon>

namespace aaren::ui {

enum class Glyph {
  // pages
  welcome, data, train, forecast, explore, efficiency,
  // actions
  open, exportChart, lecturePack, presenter
};

QIcon glyphIcon(Glyph glyph);

}  // namespace aaren::ui
