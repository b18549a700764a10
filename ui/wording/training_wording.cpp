#include "ui/wording/training_wording.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "core/classify/prediction_warnings.hpp"
#include "ui/events/event_rmse_note.hpp"
#include "ui/wording/model_names.hpp"

namespace aaren::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TrainPage", text); }

QString duration(double seconds) {
  const int total = int(seconds + 0.5);
  if (total < 60) return tr("%1 s").arg(total);
  if (total < 3600) return tr("%1 min %2 s").arg(total / 60).arg(total % 60);
  return tr("%1 h %2 min").arg(total / 3600).arg(total % 3600 / 60);
}

}  // namespace

double modelFractionDone(const TrainProgress& p) {
  if (p.epochs <= 0 || p.steps_per_epoch <= 0) return 0;
  const double ofTraining =
      (double(p.epoch - 1) + double(p.step) / double(p.steps_per_epoch)) / double(p.epochs);
  if (p.folds <= 0) return ofTraining;
  // folds trainings of every epoch, then the last one on every case (counted as one more).
  return (double(p.fold - 1) + ofTraining) / double(p.folds + 1);
}

double jobSecondsLeft(const TrainingProgress& report) {
  const TrainProgress& p = report.progress;
  const int later = std::max(0, report.models - report.model - 1);
  const double stepsPerTraining = double(p.epochs) * double(p.steps_per_epoch);
  const double stepsLeft = stepsPerTraining - (double(p.epoch - 1) * double(p.steps_per_epoch) + double(p.step));
  if (!(stepsLeft > 0) || !(p.eta_seconds > 0)) return p.eta_seconds;
  // Every training still to come, of this model and of the models after it (on the same data,
  // windows and epochs), at this training's pace; the last training of a cross-validation is counted
  // whole, which its chosen epochs can only shorten.
  const double perTraining = stepsPerTraining * (p.eta_seconds / stepsLeft);
  const int trainingsPerModel = p.folds > 0 ? p.folds + 1 : 1;
  const int laterHere = p.folds > 0 ? std::max(0, p.folds + 1 - p.fold) : 0;
  return p.eta_seconds + double(laterHere + later * trainingsPerModel) * perTraining;
}

QString describeProgress(const TrainingProgress& report) {
  const TrainProgress& p = report.progress;
  QString text = report.models > 1 ? tr("%1 (%2 of %3)").arg(report.modelName).arg(report.model + 1).arg(report.models)
                                   : report.modelName;
  if (p.folds > 0)
    text += p.fold <= p.folds ? tr(" · choosing the epochs: fold %1 of %2").arg(p.fold).arg(p.folds)
                              : tr(" · on every training case");
  text += tr(" · epoch %1 of %2 · step %3 of %4").arg(p.epoch).arg(p.epochs).arg(p.step).arg(p.steps_per_epoch);
  text += tr(" · %1 samples/s").arg(QLocale().toString(p.samples_per_second, 'f', 0));
  const double left = jobSecondsLeft(report);
  text += report.models > 1 ? tr(" · %1 left for all %2 models").arg(duration(left)).arg(report.models)
                            : tr(" · %1 left").arg(duration(left));
  if (p.epoch_end && (p.folds == 0 || p.fold > p.folds)) {
    text += tr(" · validation loss %1").arg(p.val_loss, 0, 'f', 4);
    // What chooses the epoch kept where the loss does not (a classifier's accuracy, a Decision
    // Transformer's score acting).
    if (std::isfinite(p.val_score) && !p.val_score_name.empty())
      text += tr(" · %1 %2").arg(QString::fromStdString(p.val_score_name)).arg(p.val_score, 0, 'g', 4);
  }
  return text;
}

QStringList outcomeNotes(const ModelOutcome& outcome) {
  QStringList notes;
  for (const std::string& warning : outcome.dataWarnings) notes << tr("Warning: %1.").arg(QString::fromStdString(warning));
  if (const ClassifyRunMetrics* c = std::get_if<ClassifyRunMetrics>(&outcome.metrics); c && c->test) {
    const std::string oneClass = one_class_warning(*c->test);
    if (!oneClass.empty())
      notes << tr("Warning: %1 %2.").arg(outcome.modelName, QString::fromStdString(oneClass));
  }
  if (const EventRunMetrics* e = std::get_if<EventRunMetrics>(&outcome.metrics)) {
    // As the Forecast page explains it, so that the number is not read as a failure here.
    const QString rmse = largeRmseNote({outcome.modelName, e->test.rmse, outcome.meanGap, outcome.timeUnit,
                                        e->test.nll_per_event, e->poisson_test_nll_per_event, true});
    if (!rmse.isEmpty()) notes << rmse;
  }
  return notes;
}

QString describeStop(const std::string& stop) {
  if (stop == "completed") return tr("completed");
  if (stop == "early_stopped") return tr("stopped early");
  if (stop == "cancelled") return tr("stopped by the user");
  if (stop == "diverged") return tr("diverged");
  if (stop == "running") return tr("interrupted");
  return QString::fromStdString(stop);
}

QString describeOutcome(const ModelOutcome& outcome) {
  const auto history = [](const TrainingHistory& h) {
    return tr(" · best epoch %1 of %2 · %3").arg(h.best_epoch).arg(h.epochs.size()).arg(describeStop(h.stop));
  };
  if (const EventRunMetrics* e = std::get_if<EventRunMetrics>(&outcome.metrics))
    return tr("%1: test NLL %2 per event (a Poisson process: %3), next-time RMSE %4%5 over %6 events")
               .arg(outcome.modelName)
               .arg(e->test.nll_per_event, 0, 'f', 4)
               .arg(e->poisson_test_nll_per_event, 0, 'f', 4)
               .arg(e->test.rmse, 0, 'g', 4)
               .arg(outcome.timeUnit.isEmpty() ? QString() : QLatin1Char(' ') + outcome.timeUnit)
               .arg(e->test.events) +
           history(*e);
  if (const ClassifyRunMetrics* c = std::get_if<ClassifyRunMetrics>(&outcome.metrics)) {
    // Under cross-validation the validation numbers are the folds' pooled ones at the chosen epoch.
    const QString validation =
        c->cross_validation
            ? tr("cross-validated accuracy %1% (%2 folds) · %3 epochs chosen · %4")
                  .arg(100.0 * c->validation.accuracy, 0, 'f', 2)
                  .arg(c->cross_validation->folds)
                  .arg(c->cross_validation->chosen_epoch)
                  .arg(describeStop(c->stop))
            : QString();
    if (c->test)
      return tr("%1: test accuracy %2% over %3 cases, macro F1 %4; ")
                 .arg(outcome.modelName)
                 .arg(100.0 * c->test->overall.accuracy, 0, 'f', 2)
                 .arg(c->test->overall.cases)
                 .arg(c->test->macro_f1, 0, 'f', 4) +
             (c->cross_validation ? validation
                                  : tr("validation accuracy %1%").arg(100.0 * c->validation.accuracy, 0, 'f', 2) +
                                        history(*c));
    return tr("%1: ").arg(outcome.modelName) +
           (c->cross_validation ? validation + tr(" (no test file)")
                                : tr("validation accuracy %1% over %2 cases (no test file)")
                                          .arg(100.0 * c->validation.accuracy, 0, 'f', 2)
                                          .arg(c->validation.cases) +
                                      history(*c));
  }
  if (const rl::DecisionRunMetrics* d = std::get_if<rl::DecisionRunMetrics>(&outcome.metrics)) {
    const QString validation = tr("validation action MSE %1").arg(d->validation_mse, 0, 'f', 4) + history(*d);
    if (!d->evaluation) return tr("%1: ").arg(outcome.modelName) + validation;
    const rl::DecisionEvaluationSummary& e = *d->evaluation;
    return tr("%1: normalized score %2 ± %3 over %4 episodes (mean return %5, aiming at %6, acting as a %7); ")
               .arg(outcome.modelName)
               .arg(e.score_mean, 0, 'f', 1)
               .arg(e.score_sd, 0, 'f', 1)
               .arg(e.episodes.size())
               .arg(e.return_mean, 0, 'f', 1)
               .arg(e.target_return, 0, 'f', 1)
               .arg(actModeName(e.act_mode)) +
           validation;
  }
  const ForecastRunMetrics& m = std::get<ForecastRunMetrics>(outcome.metrics);
  return tr("%1: test MSE %2, MAE %3 over %4 windows (scaled data)")
             .arg(outcome.modelName)
             .arg(m.test.mse, 0, 'f', 4)
             .arg(m.test.mae, 0, 'f', 4)
             .arg(m.test.windows) +
         history(m);
}

}  // namespace aaren::ui
