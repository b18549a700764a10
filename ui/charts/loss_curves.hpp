#pragma once
// The Train page's loss chart: a training and a validation curve per model, fed live from the
// training progress (and redrawn at most every kRefreshMs however fast the steps come), or filled
// at once from a finished run's epochs.
#include <QList>
#include <QPointF>
#include <QStringList>
#include <vector>

#include "core/train/trainer.hpp"
#include "ui/chart_panel.hpp"

class QTimer;

namespace aaren::ui {

class LossCurvesChart : public ChartPanel {
  Q_OBJECT

 public:
  static constexpr int kRefreshMs = 100;

  explicit LossCurvesChart(QWidget* parent = nullptr);

  // Empty curves for these models, in training order; the Y axis names the loss of the task.
  void reset(const QStringList& modelNames, bool eventModels);
  int modelCount() const { return int(curves_.size()); }

  // Redraws the buffered points every kRefreshMs until stopLive() (which draws the last of them).
  void startLive();
  void stopLive();
  // A step's training loss, or an epoch's validation loss; false for a model outside reset()'s
  // list or a report without steps, which is then ignored.
  bool addProgress(int model, const TrainProgress& progress);
  // A finished run's losses, one point per epoch; the view then shows all of them.
  void showEpochs(int model, const std::vector<EpochRecord>& epochs);

 private:
  struct Curves {
    QList<QPointF> train, validation;
    QLineSeries* trainSeries = nullptr;
    QLineSeries* validationSeries = nullptr;
  };

  void flush();

  QTimer* refresh_;
  std::vector<Curves> curves_;  // one per model, in training order
  bool changed_ = false;
};

}  // namespace aaren::ui
