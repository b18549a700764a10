#pragma once
// The application's icon (packaging/icons, the SVG the desktop entry names), compiled in so that
// the window shows it wherever the app runs from.
#include <QIcon>

namespace aaren::ui {

QIcon applicationIcon();

}  // namespace aaren::ui
