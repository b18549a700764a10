#pragma once
// Rich text draws <sub> and <sup> at 70 % of the text around them, under presenter mode's floor
// where the text itself is just above it.
#include <QFont>
#include <QString>

namespace aaren::ui {

// In presenter mode, where a script in `font` would be drawn under kPresenterMinimumTextPixels,
// html with every <sub> and <sup> given a size of its own that is not; elsewhere html unchanged.
QString withReadableScripts(QString html, const QFont& font);

}  // namespace aaren::ui
