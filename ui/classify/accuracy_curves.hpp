#pragma once
// The Train page's accuracy chart for classifiers (docs/DESIGN.md section 10): per model, the
// validation accuracy at each epoch's end as training goes (the trainer's validation score), and
// once a model has finished, or for a run from disk, its training and validation accuracy per
// epoch as metrics.json records them.
#include <QList>
#include <QPointF>
#include <QStringList>
#include <vector>

#include "core/train/trainer.hpp"
#include "ui/chart_panel.hpp"

namespace aaren::ui {

class AccuracyCurvesChart : public ChartPanel {
  Q_OBJECT

 public:
  explicit AccuracyCurvesChart(QWidget* parent = nullptr);
  void reset(const QStringList& modelNames);
  int modelCount() const { return int(curves_.size()); }
  int modelIndex(const QString& name) const;  // -1 when not shown
  // An epoch's end with its validation accuracy; false otherwise (and for a model not shown).
  bool addProgress(int model, const TrainProgress& progress);
  // Per-epoch accuracies (epochs from 1), replacing what the model showed.
  void showAccuracies(int model, const std::vector<double>& train, const std::vector<double>& validation);

 private:
  struct Curves {
    QString name;
    QList<QPointF> train, validation;
    QLineSeries* trainSeries = nullptr;
    QLineSeries* validationSeries = nullptr;
  };
  std::vector<Curves> curves_;
};

}  // namespace aaren::ui
