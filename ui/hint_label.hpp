#pragma once
// The quiet explanatory text under a control or a chart: muted by the theme's style sheet (object
// name "hint", ui/theme.cpp) and wrapped, so it never widens the page it sits in.
#include <QLabel>
#include <QString>

namespace aaren::ui {

QLabel* makeHint(QWidget* parent, const QString& text = {});

}  // namespace aaren::ui
