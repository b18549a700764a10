#include "ui/events/event_rmse_note.hpp"

#include <QCoreApplication>
#include <cmath>

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("aaren::ui::EventRmseNote", text); }

QString withUnit(double value, const QString& unit) {
  const QString number = QString::number(value, 'g', 3);
  return unit.isEmpty() ? number : tr("%1 %2").arg(number, unit);
}

}  // namespace

bool isLargeRmse(double rmse, double meanGap) {
  return std::isfinite(rmse) && meanGap > 0 && rmse > kLargeRmseInMeanGaps * meanGap;
}

QString largeRmseNote(const RmseContext& c) {
  if (!isLargeRmse(c.rmse, c.meanGap)) return {};
  return tr("%1's RMSE of %2 is %3 times the mean gap between %7 events (%4). The RMSE takes the mean of the "
            "predicted density as the predicted time; a density with a long tail has its mean far out, and a squared "
            "error lets those few predictions dominate. Judge the model by its NLL per event instead: %5, against "
            "%6 for a Poisson process (lower is better).")
      .arg(c.modelName, withUnit(c.rmse, c.timeUnit), QString::number(c.rmse / c.meanGap, 'f', 0),
           withUnit(c.meanGap, c.timeUnit), QString::number(c.nllPerEvent, 'f', 3),
           QString::number(c.poissonNll, 'f', 3), c.gapOfTraining ? tr("training") : tr("test"));
}

QString largeRmseFlag(double rmse, double meanGap) {
  if (!isLargeRmse(rmse, meanGap)) return {};
  return tr(" (%1 mean gaps)").arg(QString::number(rmse / meanGap, 'f', 0));
}

QString largeRmseExplanation() {
  return tr("An RMSE many mean gaps long says little: it takes the mean of the predicted density as the predicted "
            "time, a long tail puts that mean far out, and a squared error lets those few predictions dominate. "
            "Judge the models by their NLL per event (lower is better).");
}

}  // namespace aaren::ui
