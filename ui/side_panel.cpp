#include "ui/side_panel.hpp"

#include <QFrame>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <algorithm>

#include "ui/appearance.hpp"

namespace aaren::ui {

QScrollArea* makeSidePanel(QWidget* panel, int minimumWidth, double stretch, QWidget* parent) {
  auto* scroll = new QScrollArea(parent);
  scroll->setWidget(panel);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  const auto fitWidth = [scroll, panel, minimumWidth, stretch] {
    const int needed = panel->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width();
    const int width = std::max(minimumWidth, needed);
    scroll->setMinimumWidth(width);
    scroll->setMaximumWidth(int(width * stretch));
  };
  fitWidth();
  // Once the new text size has reached the widgets.
  QObject::connect(&Appearance::instance(), &Appearance::changed, scroll,
                   [scroll, fitWidth] { QTimer::singleShot(0, scroll, fitWidth); });
  return scroll;
}

}  // namespace aaren::ui
