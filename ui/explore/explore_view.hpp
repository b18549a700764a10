#pragma once
// One animated view of the Explore page (the scan tree, the recurrent cell, the Transformer as an
// RNN). A view draws the recorded frame of its StepController's position; it offers a row of its
// own settings for the page to place above it, a caption that narrates the current step and the
// formula of the current step with its numbers filled in.
#include <QString>
#include <QWidget>

#include "ui/explore/explore_inputs.hpp"
#include "ui/explore/step_controller.hpp"

namespace aaren::ui {

class ExploreView : public QWidget {
  Q_OBJECT

 public:
  explicit ExploreView(QWidget* parent = nullptr);

  StepController& controller() { return controller_; }
  const StepController& controller() const { return controller_; }

  virtual QString id() const = 0;        // for file names: "scan", "cell", "figure1"
  virtual QString title() const = 0;     // the tab
  virtual QString stepNoun() const = 0;  // "step", "token", "block"
  virtual QWidget* settings() const = 0;  // the row of this view's own choices
  virtual QString caption() const = 0;
  virtual QString formulaHtml() const = 0;
  virtual void setInputs(const ExploreInputs& inputs) = 0;

 signals:
  // The caption, the formula or the step count changed; emitted after the view has redrawn.
  void presentationChanged();

 private:
  StepController controller_;
};

}  // namespace aaren::ui
