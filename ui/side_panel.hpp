#pragma once
// A page's column of controls beside its charts. It scrolls rather than squeezing the form when
// the window is low (presenter mode's larger text on a 720-pixel projector), and it is never
// narrower than its text, which would otherwise be cut off at the right; both are fitted again
// whenever the appearance (theme, presenter mode) changes.
class QScrollArea;
class QWidget;

namespace aaren::ui {

// Between the wider of minimumWidth and what the text needs, and `stretch` times that (1: fixed).
QScrollArea* makeSidePanel(QWidget* panel, int minimumWidth, double stretch, QWidget* parent);

// The side panel and, under it, what must stay in sight (Start and the progress): the panel grows
// no taller than its content, so on a tall screen the actions sit right under the settings, and
// on a short one the settings scroll while the actions stay.
QWidget* withActionsBelow(QScrollArea* sidePanel, QWidget* actions, QWidget* parent);

}  // namespace aaren::ui
