#pragma once
// Where the Explore page's numbers come from: random (N, d_v, a seed and a shift of the scores),
// typed in by hand (scores and 1-3 dimensional values), or the actual scores and values of one
// head of a trained model. Every change that gives valid inputs emits inputsChanged(); a mistake
// is explained under the row and the previous inputs stay. choices() and setChoices() carry what the
// panel shows from one session to the next.
#include <QWidget>

#include "core/model/model_config.hpp"
#include "ui/explore/explore_inputs.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace aaren::ui {

class ModelSource;

class InputPanel : public QWidget {
  Q_OBJECT

 public:
  explicit InputPanel(QWidget* parent = nullptr);

  const ExploreInputs& inputs() const { return inputs_; }
  InputSource source() const;
  QString error() const;  // the last mistake shown, empty when none

  void setSource(InputSource source);
  ExploreInputChoices choices() const;
  // A run folder that is no longer there is left out: the random inputs are shown instead.
  void setChoices(const ExploreInputChoices& choices);
  void setRandom(int tokens, int dv, int seed, double scoreShift);
  void setTyped(const QString& scores, const QString& values);
  // Random inputs with the current N, d_v and seed, every score shifted by scoreShift.
  void setRandomScoreShift(double scoreShift);
  ModelSource& modelSource() const { return *model_; }

 signals:
  void inputsChanged(const aaren::ui::ExploreInputs& inputs);
  void modelLoaded(const aaren::ModelConfig& config, const QString& name);

 private:
  // Sets N, d_v, seed and shift without computing inputs from them.
  void showRandomSettings(int tokens, int dv, int seed, double scoreShift);
  void applyRandom();
  void applyTyped();
  void accept(const ExploreInputs& inputs);
  void showError(const QString& message);

  QComboBox* sourceBox_;
  QStackedWidget* stack_;
  QSpinBox* tokens_;
  QSpinBox* dv_;
  QSpinBox* seed_;
  QDoubleSpinBox* shift_;
  QLineEdit* scores_;
  QLineEdit* values_;
  ModelSource* model_;
  QLabel* error_;
  ExploreInputs inputs_;
};

}  // namespace aaren::ui
