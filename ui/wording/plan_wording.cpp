#include "ui/wording/plan_wording.hpp"

#include <QCoreApplication>
#include <QStringList>

namespace aaren::ui {

QString describeForTrainPage(const PlanProblem& problem) {
  const QString facts = QString::fromStdString(describe_problem(problem));
  if (problem.code == PlanErrorCode::window_length_below_one) return facts;
  QString remedy;
  switch (problem.part) {
    case SplitPart::training:
      remedy = QCoreApplication::translate("PlanWording", "lower the look-back or the horizon in the Train page, or "
                                                          "use a longer file");
      break;
    case SplitPart::validation:
      remedy = QCoreApplication::translate("PlanWording", "lower the horizon in the Train page, give validation a "
                                                          "larger fraction of the split on the Data page, or use a "
                                                          "longer file");
      break;
    case SplitPart::test:
      remedy = QCoreApplication::translate("PlanWording", "lower the horizon in the Train page, give the test part a "
                                                          "larger fraction of the split on the Data page, or use a "
                                                          "longer file");
      break;
  }
  return facts + QStringLiteral("; ") + remedy;
}

QString describeForTrainPage(const TrainingMemoryError& error) {
  return QString::fromStdString(describe_memory_shortfall(error.check(), error.kind())) + QStringLiteral(". ") +
         QCoreApplication::translate("PlanWording", "Lower the look-back, d_model, d_ff or the layers in the Train page");
}

QString describeForTrainPage(const ContinueCheck& check) {
  switch (check.refusal) {
    case ContinueRefusal::none: return {};
    case ContinueRefusal::event_data:
    case ContinueRefusal::event_model:
      return QCoreApplication::translate("TrainPage", "Event models always start from fresh weights: use Start for a "
                                                      "new run.");
    case ContinueRefusal::classifier_data:
    case ContinueRefusal::classifier_model:
      return QCoreApplication::translate("TrainPage", "Classifiers always start from fresh weights: use Start for a "
                                                      "new run.");
    case ContinueRefusal::decision_data:
    case ContinueRefusal::decision_model:
      return QCoreApplication::translate("TrainPage", "Decision Transformers always start from fresh weights: use "
                                                      "Start for a new run.");
    case ContinueRefusal::channels_differ: {
      QStringList trained, loaded;
      for (const std::string& name : check.trained_channels) trained << QString::fromStdString(name);
      for (const std::string& name : check.loaded_channels) loaded << QString::fromStdString(name);
      return QCoreApplication::translate("TrainPage", "The run was trained on the channels %1, but the Data page has "
                                                      "%2. Open the same data (or the same columns) to continue it.")
          .arg(trained.join(QStringLiteral(", ")), loaded.join(QStringLiteral(", ")));
    }
  }
  return {};
}

}  // namespace aaren::ui
