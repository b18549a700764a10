#include "ui/side_panel.hpp"

#include <QEvent>
#include <QFrame>
#include <QLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>
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

namespace {

// Keeps a scroll area no taller than its content at the width it has.
class HeightToContent : public QObject {
 public:
  explicit HeightToContent(QScrollArea* scroll) : QObject(scroll), scroll_(scroll) {
    scroll->widget()->installEventFilter(this);
  }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Resize) fit();
    return QObject::eventFilter(watched, event);
  }

 private:
  void fit() {
    const QLayout* layout = scroll_->widget()->layout();
    if (!layout) return;
    const int width = scroll_->viewport()->width();
    const int content = layout->hasHeightForWidth() ? layout->totalHeightForWidth(width) : layout->totalSizeHint().height();
    scroll_->setMaximumHeight(content + 2 * scroll_->frameWidth());
  }

  QScrollArea* scroll_;
};

}  // namespace

QWidget* withActionsBelow(QScrollArea* sidePanel, QWidget* actions, QWidget* parent) {
  new HeightToContent(sidePanel);
  auto* column = new QWidget(parent);
  auto* layout = new QVBoxLayout(column);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(sidePanel, 1);
  layout->addWidget(actions);
  layout->addStretch(0);
  return column;
}

}  // namespace aaren::ui
