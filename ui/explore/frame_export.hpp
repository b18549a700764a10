#pragma once
// The Explore page out of the application: the current view as PNG (at twice the screen's pixels,
// sharp on a projector), SVG or PDF (vector), and a whole animation as numbered PNG frames for
// slides. Files are written through a temporary file, so a failed export leaves none behind;
// failures throw std::runtime_error with the path and the reason.
#include <QImage>
#include <QString>
#include <QStringList>

#include "ui/chart_export.hpp"

class QWidget;

namespace aaren::ui {

class StepController;

inline constexpr qreal kFramePixelRatio = 2.0;

// The widget as it is laid out now (layouts settled first), at kFramePixelRatio.
QImage renderView(QWidget& view);

// The scroll bars a picture of view would show, as "OBJECTNAME vertical" or "OBJECTNAME horizontal"
// for every scroll area inside it: a slide or a frame should show none, since nobody can scroll a
// picture (the views fit their drawings to the room instead, or drop a secondary part).
QStringList visibleScrollBars(const QWidget& view);

// PNG, SVG or PDF, at the widget's on-screen size; CSV is refused (a view is not a table).
void exportView(QWidget& view, const QString& path, ExportFormat format);

// Renders the widget at every position 0..count of the controller (every `every`-th, and the last)
// into folder (created when missing) as <prefix>-0000.png, <prefix>-0001.png, ..., named by their
// position; playback is paused and the position restored afterwards. Returns the files in order.
QStringList exportFrames(QWidget& view, StepController& controller, const QString& folder, const QString& prefix,
                         int every = 1);

}  // namespace aaren::ui
