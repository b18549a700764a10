#include "ui/charts/loss_curves.hpp"

#include <QLineSeries>
#include <QTimer>

#include "ui/charts/model_colors.hpp"

namespace aaren::ui {

LossCurvesChart::LossCurvesChart(QWidget* parent)
    : ChartPanel(tr("Training and validation loss"), parent), refresh_(new QTimer(this)) {
  setObjectName(QStringLiteral("lossChart"));
  setAxisTitles(tr("epoch"), tr("MSE (scaled)"));
  setYAxisOrigin(AxisOrigin::zero);
  setPlaceholderText(tr("Train a model to see its loss"));
  setLogScaleAvailable(true);
  refresh_->setInterval(kRefreshMs);
  connect(refresh_, &QTimer::timeout, this, &LossCurvesChart::flush);
}

void LossCurvesChart::reset(const QStringList& modelNames, bool eventModels) {
  removeAllSeries();
  setAxisTitles(tr("epoch"), eventModels ? tr("NLL per event") : tr("MSE (scaled)"));
  // A squared error is never negative; a negative log-likelihood of event times can be.
  setYAxisOrigin(eventModels ? AxisOrigin::fitData : AxisOrigin::zero);
  curves_.clear();
  for (int i = 0; i < modelNames.size(); ++i) {
    Curves curves;
    curves.trainSeries = addLineSeries(tr("%1 training").arg(modelNames[i]), modelColor(modelNames[i]));
    curves.validationSeries = addLineSeries(tr("%1 validation").arg(modelNames[i]), modelValidationColor(modelNames[i]));
    curves.validationSeries->setPointsVisible(true);
    curves_.push_back(curves);
  }
  changed_ = false;
}

void LossCurvesChart::startLive() { refresh_->start(); }

void LossCurvesChart::stopLive() {
  refresh_->stop();
  flush();
}

bool LossCurvesChart::addProgress(int model, const TrainProgress& p) {
  if (model < 0 || model >= modelCount() || p.steps_per_epoch <= 0) return false;
  Curves& curves = curves_[std::size_t(model)];
  if (p.epoch_end) curves.validation.append({qreal(p.epoch), p.val_loss});
  else curves.train.append({qreal(p.epoch - 1) + qreal(p.step) / qreal(p.steps_per_epoch), p.train_loss});
  changed_ = true;
  return true;
}

void LossCurvesChart::showEpochs(int model, const std::vector<EpochRecord>& epochs) {
  if (model < 0 || model >= modelCount()) return;
  Curves& curves = curves_[std::size_t(model)];
  for (const EpochRecord& epoch : epochs) {
    curves.train.append({qreal(epoch.epoch), epoch.train_loss});
    curves.validation.append({qreal(epoch.epoch), epoch.val_loss});
  }
  changed_ = true;
  flush();
  resetView();
}

void LossCurvesChart::flush() {
  if (!changed_) return;
  changed_ = false;
  for (const Curves& curves : curves_) {
    setSeriesData(curves.trainSeries, curves.train);
    setSeriesData(curves.validationSeries, curves.validation);
    // A line needs two points: after one epoch the lone training loss is drawn as a dot.
    curves.trainSeries->setPointsVisible(curves.train.size() == 1);
  }
}

}  // namespace aaren::ui
