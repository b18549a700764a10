#include "ui/classify/accuracy_curves.hpp"

#include <QLineSeries>
#include <QPen>
#include <cmath>

#include "ui/charts/model_colors.hpp"

namespace aaren::ui {

namespace {

QList<QPointF> perEpoch(const std::vector<double>& values) {
  QList<QPointF> points;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::isfinite(values[i])) points << QPointF(qreal(i + 1), values[i]);
  return points;
}

}  // namespace

AccuracyCurvesChart::AccuracyCurvesChart(QWidget* parent) : ChartPanel(QString(), parent) {
  setTitle(tr("Accuracy per epoch"));
  setAxisTitles(tr("epoch"), tr("accuracy"));
  setYAxisOrigin(AxisOrigin::unit);
  setPlaceholderText(tr("Train a classifier to see its accuracy"));
}

void AccuracyCurvesChart::reset(const QStringList& modelNames) {
  removeAllSeries();
  curves_.clear();
  for (int m = 0; m < modelNames.size(); ++m) {
    Curves curves;
    curves.name = modelNames[m];
    curves.trainSeries = addLineSeries(tr("%1 training").arg(modelNames[m]), modelColor(modelNames[m]));
    curves.validationSeries = addLineSeries(tr("%1 validation").arg(modelNames[m]), modelValidationColor(modelNames[m]));
    QPen pen = curves.validationSeries->pen();
    pen.setStyle(Qt::DashLine);
    curves.validationSeries->setPen(pen);
    curves_.push_back(curves);
  }
  resetView();
}

int AccuracyCurvesChart::modelIndex(const QString& name) const {
  for (std::size_t i = 0; i < curves_.size(); ++i)
    if (curves_[i].name == name) return int(i);
  return -1;
}

bool AccuracyCurvesChart::addProgress(int model, const TrainProgress& progress) {
  if (model < 0 || model >= modelCount() || !progress.epoch_end || !std::isfinite(progress.val_score)) return false;
  Curves& curves = curves_[std::size_t(model)];
  curves.validation << QPointF(progress.epoch, progress.val_score);
  setSeriesData(curves.validationSeries, curves.validation);
  return true;
}

void AccuracyCurvesChart::showAccuracies(int model, const std::vector<double>& train, const std::vector<double>& validation) {
  if (model < 0 || model >= modelCount()) return;
  Curves& curves = curves_[std::size_t(model)];
  curves.train = perEpoch(train);
  curves.validation = perEpoch(validation);
  setSeriesData(curves.trainSeries, curves.train);
  setSeriesData(curves.validationSeries, curves.validation);
}

}  // namespace aaren::ui
