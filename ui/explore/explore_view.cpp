#include "ui/explore/explore_view.hpp"

namespace aaren::ui {

ExploreView::ExploreView(QWidget* parent) : QWidget(parent) {
  // A click on the drawing takes the keyboard back from a text field, for Space and the arrows.
  setFocusPolicy(Qt::ClickFocus);
}

}  // namespace aaren::ui
