#pragma once
// One animated view of the Explore page (the scan tree, the recurrent cell, the Transformer as an
// RNN). A view draws the recorded frame of its StepController's position; it offers a row of its
// own settings for the page to place above it, a caption that narrates the current step and the
// formula of the current step with its numbers filled in.
#include <QString>
#include <QWidget>

#include "ui/explore/explore_inputs.hpp"
#include "ui/explore/step_controller.hpp"

class QHBoxLayout;

namespace aaren::ui {

class ExploreView : public QWidget {
  Q_OBJECT

 public:
  // id names files ("scan", "cell", "figure1"); title names the tab.
  ExploreView(const QString& id, const QString& title, QWidget* parent = nullptr);

  StepController& controller() { return controller_; }
  const StepController& controller() const { return controller_; }

  QString id() const { return id_; }
  QString title() const { return title_; }
  QWidget* settings() const { return settings_; }  // the row of this view's own choices
  // Keeps the inputs, rebuilds the view from them (see inputsChanged) and goes back to step 0.
  void setInputs(const ExploreInputs& inputs);
  const ExploreInputs& inputs() const { return inputs_; }

  // While a lesson's question is open the view leaves out what would answer it (a weight, a count,
  // a banner that states the result); the reveal, or the end of the lesson, shows it again.
  void setAnswerWithheld(bool withheld);
  bool answerWithheld() const { return answerWithheld_; }

  virtual QString stepNoun() const = 0;  // "step", "token", "block"
  virtual QString caption() const = 0;
  virtual QString formulaHtml() const = 0;

 signals:
  // The caption, the formula or the step count changed; emitted after the view has redrawn.
  void presentationChanged();

 protected:
  // The layout of settings(), for the view to fill with its choices (children of settings()).
  QHBoxLayout& settingsRow() const { return *settingsRow_; }
  // Records the run of inputs() under the view's current choices and shows it.
  virtual void rebuild() = 0;
  // After setInputs has kept new inputs: a view whose choices depend on them adjusts them here.
  virtual void inputsChanged() { rebuild(); }

 private:
  StepController controller_;
  QString id_;
  QString title_;
  QWidget* settings_;
  QHBoxLayout* settingsRow_;
  ExploreInputs inputs_;
  bool answerWithheld_ = false;
};

}  // namespace aaren::ui
