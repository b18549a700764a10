#include "ui/explore/explore_view.hpp"

#include <QHBoxLayout>

namespace aaren::ui {

ExploreView::ExploreView(const QString& id, const QString& title, QWidget* parent)
    : QWidget(parent), id_(id), title_(title), settings_(new QWidget(this)), settingsRow_(new QHBoxLayout(settings_)) {
  settings_->hide();  // the page shows it above the view
  settingsRow_->setContentsMargins(0, 0, 0, 0);
  // A click on the drawing takes the keyboard back from a text field, for Space and the arrows.
  setFocusPolicy(Qt::ClickFocus);
}

void ExploreView::setInputs(const ExploreInputs& inputs) {
  inputs_ = inputs;
  inputsChanged();
  controller_.setPosition(0);  // new numbers start from the beginning
}

void ExploreView::setAnswerWithheld(bool withheld) {
  if (withheld == answerWithheld_) return;
  answerWithheld_ = withheld;
  const int position = controller_.position();
  rebuild();
  controller_.setPosition(position);
  update();
  emit presentationChanged();
}

}  // namespace aaren::ui
